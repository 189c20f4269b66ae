/**
 * The inference forward with fewer dispatches, the same computation as forward.ts's encodeForward
 * (which training's layout mirrors and keeps every intermediate): per layer, the input norm and
 * q/k/v are one matmulNormed over the concatenated weights (fused-weights.ts) with the biases, rope
 * and the KV-cache append in its epilogue, and the post-attention norm, gate/up and SwiGLU are one
 * more; attention, o and down stay as they are. Five dispatches a layer instead of twelve; four at
 * decode (one token per sequence), where attentionDecode computes q/k/v inside attention. Where
 * something must come between the q/k/v matmul and rope (a LoRA delta, Qwen3's q/k norms), the
 * matmul writes q, k and v apart and rope runs on its own.
 * LoRA stays per projection: each adapted projection's delta x A^T (with the same norm folded in)
 * then B is added into its own output; an adapted gate or up makes that layer's MLP write gate and
 * up apart and run SwiGLU on its own. The final norm is left to the head (GpuModel folds it into
 * the LM head), so this returns the residual stream before it.
 */
import type { CommandBatch } from '../device/index.ts';
import { attentionDecode, decodeLanes, matmulNormedRope, matmulNormedSplit, matmulNormedSwiglu, swigluForward } from '../kernels/index.ts';
import type { ModelConfig } from '../model/index.ts';
import { beginPass, encodeAttention, encodeLayer, type ForwardInputs, type LayerPass } from './forward.ts';
import type { FusedLayer, FusedWeights } from './fused-weights.ts';
import { wholeBuffer, type GpuTensor } from './gpu-tensor.ts';
import { addLoraUp, normedLinearForward, normedOptions } from './linear.ts';
import type { GpuLora } from './lora-weights.ts';
import type { ModelWeights } from './model-weights.ts';
import type { Scratch } from './scratch.ts';

/** Returns x (T, C), the residual stream before the final norm. */
export function encodeFusedForward(
  batch: CommandBatch,
  scratch: Scratch,
  config: ModelConfig,
  weights: ModelWeights,
  fused: FusedWeights,
  lora: GpuLora | undefined,
  input: ForwardInputs,
): GPUBuffer {
  const p = beginPass(batch, scratch, config, weights, lora, input);
  weights.layers.forEach((_, layer) => {
    const f = fused.layers[layer];
    if (f) encodeFusedLayer(p, layer, f);
    else encodeLayer(p, layer);
  });
  return p.x;
}

function encodeFusedLayer(p: LayerPass, layer: number, f: FusedLayer): void {
  const { numHeads: H, numKvHeads: KV, headDim: D, intermediateSize: I } = p.config;
  const l = p.weights.layers[layer];
  if (l.qNorm || p.loraOf(l.q) || p.loraOf(l.k) || p.loraOf(l.v)) {
    split(p, l.inputNorm, f.qkv, f.qkvBias, [l.q, l.k, l.v], [p.q, p.k, p.v], [H * D, KV * D]);
    encodeAttention(p, layer);
  } else if (p.input.T === p.input.slots.length) {
    decodeAttention(p, layer, f);
  } else {
    qkvRope(p, layer, f);
    encodeAttention(p, layer, true);
  }
  if (p.loraOf(l.gate) || p.loraOf(l.up)) {
    const none = p.scratch.floats(1, 'empty third part');
    split(p, l.postNorm, f.gateUp, undefined, [l.gate, l.up], [p.gate, p.up, none], [I, I]);
    p.batch.run(swigluForward, {}, { gate: p.gate, up: p.up, out: p.act }, { n: p.input.T * I });
  } else {
    const chunk = f.gateUp.chunks[0];
    p.batch.run(
      matmulNormedSwiglu,
      normedOptions(f.gateUp, l.postNorm, p.input.T, p.input.lanes, false),
      { x: p.x, g: wholeBuffer(l.postNorm), w: chunk.buffer, scales: chunk.scales ?? chunk.buffer, b: chunk.buffer, out: p.act },
      { M: p.input.T, N: I, K: f.gateUp.cols, ldo: 0, col0: 0, N1: 0, N2: 0, eps: p.config.rmsNormEps },
    );
  }
  p.linear({ x: p.act, weight: l.down, out: p.x, accumulate: true });
}

/** q/k/v with rope and the cache append in one matmulNormedRope: nothing to add between the matmul and rope. */
function qkvRope(p: LayerPass, layer: number, f: FusedLayer): void {
  const { numHeads: H, numKvHeads: KV, headDim: D } = p.config;
  const { T, lanes, cache, startPos } = p.input;
  const chunk = f.qkv.chunks[0];
  p.batch.run(
    matmulNormedRope,
    normedOptions(f.qkv, f.inputNormBias, T, lanes, f.qkvBias !== undefined),
    {
      x: p.x,
      g: wholeBuffer(f.inputNormBias),
      w: chunk.buffer,
      scales: chunk.scales ?? chunk.buffer,
      cs: p.input.rope,
      q: p.q,
      kc: cache.k[layer],
      vc: cache.v[layer],
    },
    {
      M: T,
      N: f.qkv.rows / 2,
      K: f.qkv.cols,
      ldo: 0,
      col0: 0,
      N1: H * D,
      N2: KV * D,
      eps: p.config.rmsNormEps,
      D,
      Tq: T / p.input.slots.length,
      startPos,
      slotStride: cache.slotBytes / 4,
      slotsAt: T * D,
    },
  );
}

/** One token per sequence: q/k/v, rope, the cache append and attention in one attentionDecode, then o. */
function decodeAttention(p: LayerPass, layer: number, f: FusedLayer): void {
  const { numHeads: H, numKvHeads: KV, headDim: D, rmsNormEps: eps } = p.config;
  const { T, lanes, cache, startPos } = p.input;
  const chunk = f.qkv.chunks[0];
  const att = p.scratch.floats(T * H * D, 'attention');
  const { dtype, normDtype, groupSize, vec4, bias } = normedOptions(f.qkv, f.inputNormBias, T, lanes, f.qkvBias !== undefined);
  p.batch.run(
    attentionDecode,
    { dtype, normDtype, groupSize, vec4, bias, headDim: D, lanes: decodeLanes(D, lanes) },
    {
      x: p.x,
      g: wholeBuffer(f.inputNormBias),
      w: chunk.buffer,
      scales: chunk.scales ?? chunk.buffer,
      cs: p.input.rope,
      kc: cache.k[layer],
      vc: cache.v[layer],
      out: att,
    },
    { M: T, K: f.qkv.cols, H, KV, eps, startPos, slotStride: cache.slotBytes / 4, slotsAt: T * D, scale: 1 / Math.sqrt(D) },
  );
  p.linear({ x: att, weight: p.weights.layers[layer].o, out: p.x, accumulate: true });
}

/**
 * outs[i] = rmsnorm(x; norm) parts[i]^T (+ bias), all parts from the one concatenated `weight`
 * (widths of the first two given; the third, possibly empty, is the rest), then each adapted part's LoRA delta.
 */
function split(
  p: LayerPass,
  norm: GpuTensor,
  weight: GpuTensor,
  bias: GpuTensor | undefined,
  parts: readonly GpuTensor[],
  outs: readonly GPUBuffer[],
  [N1, N2]: readonly [number, number],
): void {
  const { T, lanes } = p.input;
  const chunk = weight.chunks[0];
  p.batch.run(
    matmulNormedSplit,
    normedOptions(weight, norm, T, lanes, bias !== undefined),
    {
      x: p.x,
      g: wholeBuffer(norm),
      w: chunk.buffer,
      scales: chunk.scales ?? chunk.buffer,
      b: bias ? wholeBuffer(bias) : chunk.buffer,
      out1: outs[0],
      out2: outs[1],
      out3: outs[2],
    },
    { M: T, N: weight.rows, K: weight.cols, ldo: 0, col0: 0, N1, N2, eps: p.config.rmsNormEps },
  );
  parts.forEach((part, i) => {
    const adapted = p.loraOf(part);
    if (!adapted) return;
    const { A, B } = adapted.module;
    const xa = p.scratch.floats(T * A.rows, 'lora xA'); // (T, r)
    normedLinearForward(p.batch, { x: p.x, M: T, norm, eps: p.config.rmsNormEps, weight: A, out: xa, lanes });
    addLoraUp(p.batch, lanes, xa, T, B, outs[i], adapted.scale);
  });
}

/**
 * One decoder layer's backward, the port of the layer loop of model-backward.ref.ts's backward, in
 * its order: down, SwiGLU, gate/up, post-norm with the residual, o, attention (from the saved
 * log-sum-exp), RoPE, q/k norms, q/k/v, input norm with the residual. `dx` holds the gradient of the
 * layer's output (T, C) and is turned in place into the gradient of its input; the activations `a`
 * are those encodeLayerForward recomputed from the saved input `x` just before; `g` holds the
 * activations' gradients, one set reused by every layer.
 */
import type { CommandBatch } from '../device/index.ts';
import {
  attentionBackwardKeyValue,
  attentionBackwardQuery,
  rmsnormBackward,
  rmsnormBackwardWeight,
  rmsnormThreads,
  ropeCacheBackward,
  swigluBackward,
} from '../kernels/index.ts';
import type { ModelConfig } from '../model/index.ts';
import { wholeBuffer, type GpuTensor, type Scratch } from '../runtime/index.ts';
import { attentionUniforms, ropeLayout, type LayerActivations } from './layer-forward.ts';
import { linearBackward } from './linear-backward.ts';
import { loraModule, type TrainingPass } from './training-pass.ts';

/** The gradients of one layer's activations, reused by every layer of a backward pass. */
export interface LayerGradients {
  readonly dAct: GPUBuffer; // (T, I)
  readonly dGate: GPUBuffer; // (T, I)
  readonly dUp: GPUBuffer; // (T, I)
  readonly dH: GPUBuffer; // (T, C)
  readonly dAtt: GPUBuffer; // (T, H, D)
  readonly dq: GPUBuffer; // (T, H, D) of the rotated q, then (rope's backward, in place) of q before rope
  readonly delta: GPUBuffer; // (T, H)
  readonly dkc: GPUBuffer; // (T, KV, D) of the rotated keys
  readonly dvc: GPUBuffer; // (T, KV, D)
  readonly dk: GPUBuffer; // (T, KV, D)
  readonly dv: GPUBuffer; // (T, KV, D)
  readonly dqPre: GPUBuffer; // (T, H, D) before the q norm (dq itself without one)
  readonly dkPre: GPUBuffer; // (T, KV, D)
  readonly rstd: GPUBuffer; // (T * H): one per normed row (T * H for the q norm, the most)
  readonly xa: GPUBuffer; // (T, r) LoRA's x A^T
  readonly dxa: GPUBuffer; // (T, r)
}

/** Float counts of LayerGradients' buffers, for layerGradients and the memory estimate. */
export function layerGradientSizes(config: ModelConfig, T: number, rank: number): Record<keyof LayerGradients, number> {
  const { hiddenSize: C, numHeads: H, numKvHeads: KV, headDim: D, intermediateSize: I, qkNorm } = config;
  return {
    dAct: T * I,
    dGate: T * I,
    dUp: T * I,
    dH: T * C,
    dAtt: T * H * D,
    dq: T * H * D,
    delta: T * H,
    dkc: T * KV * D,
    dvc: T * KV * D,
    dk: T * KV * D,
    dv: T * KV * D,
    dqPre: qkNorm ? T * H * D : 0,
    dkPre: qkNorm ? T * KV * D : 0,
    rstd: T * H,
    xa: T * rank,
    dxa: T * rank,
  };
}

export function layerGradients(pass: TrainingPass, scratch: Scratch): LayerGradients {
  const sizes = layerGradientSizes(pass.config, pass.T, pass.lora?.rank ?? 0);
  const take = (name: keyof LayerGradients) => scratch.floats(sizes[name], `d ${name}`);
  const [dq, dk] = [take('dq'), take('dk')];
  const qkNorm = pass.config.qkNorm;
  return {
    dAct: take('dAct'),
    dGate: take('dGate'),
    dUp: take('dUp'),
    dH: take('dH'),
    dAtt: take('dAtt'),
    dq,
    delta: take('delta'),
    dkc: take('dkc'),
    dvc: take('dvc'),
    dk,
    dv: take('dv'),
    dqPre: qkNorm ? take('dqPre') : dq,
    dkPre: qkNorm ? take('dkPre') : dk,
    rstd: take('rstd'),
    xa: take('xa'),
    dxa: take('dxa'),
  };
}

/** dy (T, out) back through a layer's linear: into dx (T, in), and into the gradients of what trains. */
export function trainingLinearBackward(
  batch: CommandBatch,
  pass: TrainingPass,
  g: Pick<LayerGradients, 'xa' | 'dxa'>,
  x: GPUBuffer,
  weight: GpuTensor,
  dy: GPUBuffer,
  dx: GPUBuffer,
  accumulate: boolean,
  bias?: GpuTensor,
): void {
  const lora = loraModule(pass, weight);
  const dWeight = pass.grads?.weight(weight);
  const dBias = pass.grads?.weight(bias)?.[0];
  const grads = lora ? pass.grads?.lora(lora.path) : undefined;
  linearBackward(batch, {
    x,
    M: pass.T,
    weight,
    dy,
    dx,
    accumulate,
    lanes: pass.lanes,
    ...(dWeight ? { dWeight } : {}),
    ...(bias && dBias ? { bias, dBias } : {}),
    ...(lora ? { lora: { module: lora.module, scale: lora.scale, xa: g.xa, dxa: g.dxa, ...(grads ? { grads } : {}) } } : {}),
  });
}

/**
 * dy (rows, width) back through an RMSNorm of x: dx (+)= its input gradient, and the weight's
 * gradient where it trains.
 */
export function rmsnormBackwardInto(
  batch: CommandBatch,
  pass: TrainingPass,
  rstd: GPUBuffer,
  x: GPUBuffer,
  w: GpuTensor,
  dy: GPUBuffer,
  dx: GPUBuffer,
  rows: number,
  width: number,
  accumulate: boolean,
): void {
  batch.run(
    rmsnormBackward,
    { dtype: pass.weights.dtype, accumulate, threads: rmsnormThreads(width) },
    { dy, x, w: wholeBuffer(w), dx, rstd },
    { rows, C: width, eps: pass.config.rmsNormEps },
  );
  const dw = pass.grads?.weight(w)?.[0];
  if (dw) batch.run(rmsnormBackwardWeight, { accumulate: true }, { dy, x, rstd, dw }, { rows, C: width });
}

export function encodeLayerBackward(
  batch: CommandBatch,
  pass: TrainingPass,
  layer: number,
  x: GPUBuffer,
  a: LayerActivations,
  g: LayerGradients,
  dx: GPUBuffer,
): void {
  const { hiddenSize: C, numHeads: H, numKvHeads: KV, headDim: D, intermediateSize: I } = pass.config;
  const T = pass.T;
  const l = pass.weights.layers[layer];
  const linearBackward = (x: GPUBuffer, w: GpuTensor, dy: GPUBuffer, dOut: GPUBuffer, accumulate: boolean, bias?: GpuTensor) =>
    trainingLinearBackward(batch, pass, g, x, w, dy, dOut, accumulate, bias);
  const normBackward = (x: GPUBuffer, w: GpuTensor, dy: GPUBuffer, dOut: GPUBuffer, rows: number, width: number, accumulate: boolean) =>
    rmsnormBackwardInto(batch, pass, g.rstd, x, w, dy, dOut, rows, width, accumulate);

  linearBackward(a.act, l.down, dx, g.dAct, false);
  batch.run(swigluBackward, {}, { dy: g.dAct, gate: a.gate, up: a.up, dgate: g.dGate, dup: g.dUp }, { n: T * I });
  linearBackward(a.h2, l.gate, g.dGate, g.dH, false);
  linearBackward(a.h2, l.up, g.dUp, g.dH, true);
  // dx becomes d mid: the residual's gradient plus the post-norm's.
  normBackward(a.mid, l.postNorm, g.dH, dx, T, C, true);

  linearBackward(a.att, l.o, dx, g.dAtt, false);
  const attention = attentionUniforms(pass);
  const kv = { q: a.qr, k: a.kc, v: a.vc, visibility: pass.visibility, dout: g.dAtt, lse: a.lse };
  batch.run(attentionBackwardQuery, { headDim: D }, { ...kv, out: a.att, dq: g.dq, delta: g.delta }, attention);
  batch.run(attentionBackwardKeyValue, { headDim: D }, { ...kv, delta: g.delta, dk: g.dkc, dv: g.dvc }, attention);
  batch.run(ropeCacheBackward, {}, { dq: g.dq, dk: g.dk, dv: g.dv, cs: pass.rope, slots: pass.slots, dkc: g.dkc, dvc: g.dvc }, ropeLayout(pass));
  if (l.qNorm && l.kNorm) {
    normBackward(a.q, l.qNorm, g.dq, g.dqPre, T * H, D, false);
    normBackward(a.k, l.kNorm, g.dk, g.dkPre, T * KV, D, false);
  }
  linearBackward(a.h, l.q, g.dqPre, g.dH, false, l.qBias);
  linearBackward(a.h, l.k, g.dkPre, g.dH, true, l.kBias);
  linearBackward(a.h, l.v, g.dv, g.dH, true, l.vBias);
  normBackward(x, l.inputNorm, g.dH, dx, T, C, true);
}

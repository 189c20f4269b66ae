/**
 * One decoder layer's training forward, the layer loop of model-backward.ref.ts's forward (and of
 * runtime/forward.ts, which it follows op for op), keeping every intermediate its backward reads in
 * LayerActivations: the attention saves its log-sum-exp (attentionTrainingForward) and the rotated
 * keys and values go to plain (T, KV, D) buffers in row order, not a KV cache. The trainer runs it twice per
 * layer: in the forward phase (only the output kept) and again from the saved input just before the
 * layer's backward (activation checkpointing: one layer's activations alive at a time).
 */
import type { CommandBatch } from '../device/index.ts';
import { attentionTrainingForward, rmsnormForward, rmsnormThreads, ropeCacheForward, swigluForward } from '../kernels/index.ts';
import type { ModelConfig } from '../model/index.ts';
import { linearForward, wholeBuffer, type GpuTensor, type Scratch } from '../runtime/index.ts';
import { loraModule, type TrainingPass } from './training-pass.ts';

export interface LayerActivations {
  readonly h: GPUBuffer; // (T, C) input-normed
  readonly q: GPUBuffer; // (T, H, D) projected (before the q norm)
  readonly k: GPUBuffer; // (T, KV, D)
  readonly v: GPUBuffer; // (T, KV, D)
  /** After the q norm (q itself without one), then rotated in place by ropeCacheForward. */
  readonly qr: GPUBuffer; // (T, H, D)
  readonly kn: GPUBuffer; // (T, KV, D) after the k norm (k itself without one)
  readonly kc: GPUBuffer; // (T, KV, D) rotated keys
  readonly vc: GPUBuffer; // (T, KV, D) values
  readonly att: GPUBuffer; // (T, H, D)
  readonly lse: GPUBuffer; // (T, H)
  readonly mid: GPUBuffer; // (T, C) after the attention residual
  readonly h2: GPUBuffer; // (T, C) post-normed
  readonly gate: GPUBuffer; // (T, I)
  readonly up: GPUBuffer; // (T, I)
  readonly act: GPUBuffer; // (T, I)
}

/** Float counts of LayerActivations' buffers (0: shared with another), for layerActivations and the memory estimate. */
export function layerActivationSizes(config: ModelConfig, T: number): Record<keyof LayerActivations, number> {
  const { hiddenSize: C, numHeads: H, numKvHeads: KV, headDim: D, intermediateSize: I, qkNorm } = config;
  return {
    h: T * C,
    q: T * H * D,
    k: T * KV * D,
    v: T * KV * D,
    qr: qkNorm ? T * H * D : 0,
    kn: qkNorm ? T * KV * D : 0,
    kc: T * KV * D,
    vc: T * KV * D,
    att: T * H * D,
    lse: T * H,
    mid: T * C,
    h2: T * C,
    gate: T * I,
    up: T * I,
    act: T * I,
  };
}

export function layerActivations(pass: TrainingPass, scratch: Scratch): LayerActivations {
  const sizes = layerActivationSizes(pass.config, pass.T);
  const take = (name: keyof LayerActivations) => scratch.floats(sizes[name], name);
  const [q, k] = [take('q'), take('k')];
  const qkNorm = pass.config.qkNorm;
  return {
    h: take('h'),
    q,
    k,
    v: take('v'),
    qr: qkNorm ? take('qr') : q,
    kn: qkNorm ? take('kn') : k,
    kc: take('kc'),
    vc: take('vc'),
    att: take('att'),
    lse: take('lse'),
    mid: take('mid'),
    h2: take('h2'),
    gate: take('gate'),
    up: take('up'),
    act: take('act'),
  };
}

/** RoPE's uniforms in training's layout: the T rows as one sequence in one slot, key row t at row t. */
export function ropeLayout(pass: TrainingPass) {
  const { numHeads: H, numKvHeads: KV, headDim: D } = pass.config;
  return { T: pass.T, Tq: pass.T, startPos: 0, slotStride: pass.T * KV * D, H, KV, D };
}

/** The training attention kernels' uniforms. */
export function attentionUniforms(pass: TrainingPass) {
  const { numHeads: H, numKvHeads: KV, headDim: D } = pass.config;
  return { T: pass.T, Hq: H, Hkv: KV, scale: 1 / Math.sqrt(D) };
}

/** out (M, N) = x W^T (+ b) (+ the adapter's delta), as the inference forward's linear. */
function trainingLinear(
  batch: CommandBatch,
  pass: TrainingPass,
  x: GPUBuffer,
  weight: GpuTensor,
  out: GPUBuffer,
  extra: { bias?: GpuTensor; accumulate?: boolean } = {},
): void {
  const lora = loraModule(pass, weight);
  linearForward(batch, {
    x,
    M: pass.T,
    weight,
    out,
    lanes: pass.lanes,
    ...extra,
    ...(lora ? { lora: { module: lora.module, scale: lora.scale, scratch: pass.scratch } } : {}),
  });
}

export function rmsnorm(batch: CommandBatch, pass: TrainingPass, x: GPUBuffer, w: GpuTensor, out: GPUBuffer, rows: number, width: number): void {
  batch.run(
    rmsnormForward,
    { dtype: pass.weights.dtype, threads: rmsnormThreads(width) },
    { x, w: wholeBuffer(w), out },
    { rows, C: width, eps: pass.config.rmsNormEps },
  );
}

/**
 * Layer `layer` from its input x (T, C): fills `a`, and with `out` writes the layer's output there
 * (out = mid + down(act)); without it (the recompute before the backward) stops after the SwiGLU.
 */
export function encodeLayerForward(batch: CommandBatch, pass: TrainingPass, layer: number, x: GPUBuffer, a: LayerActivations, out?: GPUBuffer): void {
  const { hiddenSize: C, numHeads: H, numKvHeads: KV, headDim: D, intermediateSize: I } = pass.config;
  const T = pass.T;
  const l = pass.weights.layers[layer];
  rmsnorm(batch, pass, x, l.inputNorm, a.h, T, C);
  trainingLinear(batch, pass, a.h, l.q, a.q, { bias: l.qBias });
  trainingLinear(batch, pass, a.h, l.k, a.k, { bias: l.kBias });
  trainingLinear(batch, pass, a.h, l.v, a.v, { bias: l.vBias });
  if (l.qNorm && l.kNorm) {
    rmsnorm(batch, pass, a.q, l.qNorm, a.qr, T * H, D);
    rmsnorm(batch, pass, a.k, l.kNorm, a.kn, T * KV, D);
  }
  batch.run(ropeCacheForward, {}, { q: a.qr, k: a.kn, v: a.v, cs: pass.rope, slots: pass.slots, kc: a.kc, vc: a.vc }, ropeLayout(pass));
  batch.run(
    attentionTrainingForward,
    { headDim: D },
    { q: a.qr, k: a.kc, v: a.vc, visibility: pass.visibility, out: a.att, lse: a.lse },
    attentionUniforms(pass),
  );
  batch.copy(x, 0, a.mid, 0, T * C * 4);
  trainingLinear(batch, pass, a.att, l.o, a.mid, { accumulate: true });
  rmsnorm(batch, pass, a.mid, l.postNorm, a.h2, T, C);
  trainingLinear(batch, pass, a.h2, l.gate, a.gate);
  trainingLinear(batch, pass, a.h2, l.up, a.up);
  batch.run(swigluForward, {}, { gate: a.gate, up: a.up, out: a.act }, { n: T * I });
  if (!out) return;
  batch.copy(a.mid, 0, out, 0, T * C * 4);
  trainingLinear(batch, pass, a.act, l.down, out, { accumulate: true });
}

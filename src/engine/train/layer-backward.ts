/**
 * One decoder layer's backward, the port of the layer loop of model-backward.ref.ts's backward, in
 * its order: down, SwiGLU, gate/up, post-norm with the residual, o, attention (from the saved
 * log-sum-exp), RoPE, q/k norms, q/k/v, input norm with the residual. `dx` holds the gradient of the
 * layer's output (T, C) and is turned in place into the gradient of its input; the activations `a`
 * are those encodeLayerForward recomputed from the saved input `x` just before.
 */
import type { CommandBatch } from '../device/index.ts';
import { attentionBackwardKeyValue, attentionBackwardQuery, rmsnormBackward, rmsnormBackwardWeight, ropeCacheBackward, swigluBackward } from '../kernels/index.ts';
import { wholeBuffer, type GpuTensor } from '../runtime/index.ts';
import { attentionLayout, type LayerActivations } from './layer-forward.ts';
import { linearBackward } from './linear-backward.ts';
import { loraModule, type TrainingPass } from './training-pass.ts';

/** dy (T, out) back through a layer's linear: into dx (T, in), and into the gradients of what trains. */
export function trainingLinearBackward(batch: CommandBatch, pass: TrainingPass, x: GPUBuffer, weight: GpuTensor, dy: GPUBuffer, dx: GPUBuffer, accumulate: boolean, bias?: GpuTensor): void {
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
    ...(lora ? { lora: { module: lora.module, scale: lora.scale, scratch: pass.scratch, ...(grads ? { grads } : {}) } } : {}),
  });
}

/**
 * dy (rows, width) back through an RMSNorm of x: dx (+)= its input gradient, and the weight's
 * gradient where it trains.
 */
export function rmsnormBackwardInto(batch: CommandBatch, pass: TrainingPass, x: GPUBuffer, w: GpuTensor, dy: GPUBuffer, dx: GPUBuffer, rows: number, width: number, accumulate: boolean): void {
  const rstd = pass.scratch.floats(rows, 'rstd');
  batch.run(rmsnormBackward, { dtype: pass.weights.dtype, accumulate }, { dy, x, w: wholeBuffer(w), dx, rstd }, { rows, C: width, eps: pass.config.rmsNormEps });
  const dw = pass.grads?.weight(w)?.[0];
  if (dw) batch.run(rmsnormBackwardWeight, { accumulate: true }, { dy, x, rstd, dw }, { rows, C: width });
}

export function encodeLayerBackward(batch: CommandBatch, pass: TrainingPass, layer: number, x: GPUBuffer, a: LayerActivations, dx: GPUBuffer): void {
  const { hiddenSize: C, numHeads: H, numKvHeads: KV, headDim: D, intermediateSize: I } = pass.config;
  const { T, scratch } = pass;
  const l = pass.weights.layers[layer];
  const dAct = scratch.floats(T * I, 'd swiglu');
  trainingLinearBackward(batch, pass, a.act, l.down, dx, dAct, false);
  const dGate = scratch.floats(T * I, 'd gate');
  const dUp = scratch.floats(T * I, 'd up');
  batch.run(swigluBackward, {}, { dy: dAct, gate: a.gate, up: a.up, dgate: dGate, dup: dUp }, { n: T * I });
  const dH = scratch.floats(T * C, 'd h');
  trainingLinearBackward(batch, pass, a.h2, l.gate, dGate, dH, false);
  trainingLinearBackward(batch, pass, a.h2, l.up, dUp, dH, true);
  // dx becomes d mid: the residual's gradient plus the post-norm's.
  rmsnormBackwardInto(batch, pass, a.mid, l.postNorm, dH, dx, T, C, true);

  const dAtt = scratch.floats(T * H * D, 'd attention');
  trainingLinearBackward(batch, pass, a.att, l.o, dx, dAtt, false);
  const shape = attentionLayout(pass);
  const attention = { ...shape, Hq: H, Hkv: KV, scale: 1 / Math.sqrt(D) };
  const dq = scratch.floats(T * H * D, 'd q');
  const delta = scratch.floats(T * H, 'attention delta');
  batch.run(attentionBackwardQuery, { headDim: D }, { q: a.qr, k: a.kc, v: a.vc, slots: pass.slots, out: a.att, dout: dAtt, lse: a.lse, dq, delta }, attention);
  const dkc = scratch.floats(T * KV * D, 'd keys');
  const dvc = scratch.floats(T * KV * D, 'd values');
  batch.run(attentionBackwardKeyValue, { headDim: D }, { q: a.qr, k: a.kc, v: a.vc, slots: pass.slots, dout: dAtt, lse: a.lse, delta, dk: dkc, dv: dvc }, attention);
  const dk = scratch.floats(T * KV * D, 'd k');
  const dv = scratch.floats(T * KV * D, 'd v');
  batch.run(ropeCacheBackward, {}, { dq, dk, dv, cs: pass.rope, slots: pass.slots, dkc, dvc }, { ...shape, H, KV, D });

  let [dqPre, dkPre] = [dq, dk];
  if (l.qNorm && l.kNorm) {
    dqPre = scratch.floats(T * H * D, 'd q projected');
    dkPre = scratch.floats(T * KV * D, 'd k projected');
    rmsnormBackwardInto(batch, pass, a.q, l.qNorm, dq, dqPre, T * H, D, false);
    rmsnormBackwardInto(batch, pass, a.k, l.kNorm, dk, dkPre, T * KV, D, false);
  }
  trainingLinearBackward(batch, pass, a.h, l.q, dqPre, dH, false, l.qBias);
  trainingLinearBackward(batch, pass, a.h, l.k, dkPre, dH, true, l.kBias);
  trainingLinearBackward(batch, pass, a.h, l.v, dv, dH, true, l.vBias);
  rmsnormBackwardInto(batch, pass, x, l.inputNorm, dH, dx, T, C, true);
}

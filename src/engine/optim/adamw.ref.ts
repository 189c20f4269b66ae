/**
 * Float64 reference of one AdamW step: the specification adamw.ts is a port of, and what its tests
 * check it against. The same arithmetic, in the same order, as torch.optim.AdamW's single-tensor path
 * (amsgrad off, maximize off):
 *   t = step + 1
 *   p <- p * (1 - lr * weightDecay)                     decoupled decay, on the old p, before the update
 *   m <- beta1 * m + (1 - beta1) * g
 *   v <- beta2 * v + (1 - beta2) * g^2
 *   p <- p - (lr / (1 - beta1^t)) * m / (sqrt(v) / sqrt(1 - beta2^t) + eps)
 * with g the gradient times the clip coefficient (clip.ref.ts), as clip_grad_norm_ leaves it.
 */
import type { Vec } from '../kernels/index.ts';

export interface AdamWHyper {
  /** Steps already taken (0 before the first); the bias corrections use step + 1. */
  readonly step: number;
  readonly lr: number;
  readonly beta1: number;
  readonly beta2: number;
  readonly eps: number;
  readonly weightDecay: number;
  /** Multiplies every gradient value: the global-norm clip coefficient (1 = no clipping). */
  readonly clip: number;
}

export interface AdamWState {
  readonly param: Float64Array;
  readonly m: Float64Array;
  readonly v: Float64Array;
}

/** One AdamW step over a flat parameter array; returns the new parameter and moments, the inputs untouched. */
export function adamwRef(param: Vec, grad: Vec, m: Vec, v: Vec, h: AdamWHyper): AdamWState {
  const n = param.length;
  const t = h.step + 1;
  const stepSize = h.lr / (1 - h.beta1 ** t);
  const bc2Sqrt = Math.sqrt(1 - h.beta2 ** t);
  const out = { param: new Float64Array(n), m: new Float64Array(n), v: new Float64Array(n) };
  for (let i = 0; i < n; i++) {
    const g = grad[i] * h.clip;
    const mi = h.beta1 * m[i] + (1 - h.beta1) * g;
    const vi = h.beta2 * v[i] + (1 - h.beta2) * g * g;
    out.m[i] = mi;
    out.v[i] = vi;
    out.param[i] = param[i] * (1 - h.lr * h.weightDecay) - (stepSize * mi) / (Math.sqrt(vi) / bc2Sqrt + h.eps);
  }
  return out;
}

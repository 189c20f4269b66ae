/**
 * Float64 reference of a linear layer (HF's nn.Linear layout): the specification matmul.ts is a port of,
 * and what its tests check it against. Plain loops, row-major; dimension letters as in
 * ../runtime/forward.ref.ts.
 */
import type { Vec } from './ref-types.ts';

/** y = x W^T + b. x (T, in), W (out, in) as HF stores nn.Linear, b (out) or undefined. */
export function matmulRef(x: Vec, w: Vec, bias: Vec | undefined, T: number, inF: number, outF: number): Float64Array {
  const y = new Float64Array(T * outF);
  for (let t = 0; t < T; t++) {
    for (let o = 0; o < outF; o++) {
      let s = bias ? bias[o] : 0;
      for (let i = 0; i < inF; i++) s += x[t * inF + i] * w[o * inF + i];
      y[t * outF + o] = s;
    }
  }
  return y;
}

/** Backward of matmulRef to its input: dx (T, in) = dy (T, out) W (out, in). */
export function matmulBackwardInputRef(dy: Vec, w: Vec, T: number, inF: number, outF: number): Float64Array {
  const dx = new Float64Array(T * inF);
  for (let t = 0; t < T; t++) {
    for (let o = 0; o < outF; o++) {
      const g = dy[t * outF + o];
      for (let i = 0; i < inF; i++) dx[t * inF + i] += g * w[o * inF + i];
    }
  }
  return dx;
}

/** Backward of matmulRef to its weight and bias: dw (out, in) = dy^T x, dbias (out) = column sums of dy (T, out). */
export function matmulBackwardWeightRef(dy: Vec, x: Vec, T: number, inF: number, outF: number): { dw: Float64Array; dbias: Float64Array } {
  const dw = new Float64Array(outF * inF);
  const dbias = new Float64Array(outF);
  for (let t = 0; t < T; t++) {
    for (let o = 0; o < outF; o++) {
      const g = dy[t * outF + o];
      dbias[o] += g;
      for (let i = 0; i < inF; i++) dw[o * inF + i] += g * x[t * inF + i];
    }
  }
  return { dw, dbias };
}

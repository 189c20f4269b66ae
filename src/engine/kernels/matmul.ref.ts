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

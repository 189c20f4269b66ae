/**
 * Float64 reference of RMSNorm (also per-head q/k norm): the specification rmsnorm.ts is a port of, and
 * what its tests check it against. Plain loops, row-major; dimension letters as in
 * ../runtime/forward.ref.ts.
 */
import type { Vec } from './ref-types.ts';

/** y = x / sqrt(mean(x^2) + eps) * w, per row. x (rows, dim), w (dim). */
export function rmsnormRef(x: Vec, weight: Vec, rows: number, dim: number, eps: number): Float64Array {
  const y = new Float64Array(rows * dim);
  for (let r = 0; r < rows; r++) {
    let ss = 0;
    for (let i = 0; i < dim; i++) ss += x[r * dim + i] ** 2;
    const inv = 1 / Math.sqrt(ss / dim + eps);
    for (let i = 0; i < dim; i++) y[r * dim + i] = x[r * dim + i] * inv * weight[i];
  }
  return y;
}

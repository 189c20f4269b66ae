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

/**
 * Backward of rmsnormRef given dy (rows, dim). With inv = 1 / sqrt(mean(x^2) + eps) per row:
 *   dx[i] = inv * dy[i] w[i] - inv^3 / dim * x[i] * sum_j dy[j] w[j] x[j]
 *   dweight[i] = sum over rows of dy[i] x[i] inv
 */
export function rmsnormBackwardRef(dy: Vec, x: Vec, weight: Vec, rows: number, dim: number, eps: number): { dx: Float64Array; dweight: Float64Array } {
  const dx = new Float64Array(rows * dim);
  const dweight = new Float64Array(dim);
  for (let r = 0; r < rows; r++) {
    let ss = 0;
    let dot = 0;
    for (let i = 0; i < dim; i++) {
      ss += x[r * dim + i] ** 2;
      dot += dy[r * dim + i] * weight[i] * x[r * dim + i];
    }
    const inv = 1 / Math.sqrt(ss / dim + eps);
    for (let i = 0; i < dim; i++) {
      const xi = x[r * dim + i];
      dx[r * dim + i] = inv * dy[r * dim + i] * weight[i] - (inv ** 3 / dim) * xi * dot;
      dweight[i] += dy[r * dim + i] * xi * inv;
    }
  }
  return { dx, dweight };
}

/**
 * Float64 reference of log-softmax: the specification logprobs.ts (which then gathers the chosen token) is
 * a port of, and what its tests check it against. Plain loops, row-major; dimension letters as in
 * ../runtime/forward.ref.ts.
 */
import type { Vec } from './ref-types.ts';

/** log softmax of each row of x (rows, cols), max-subtracted. */
export function logSoftmaxRef(x: Vec, rows: number, cols: number): Float64Array {
  const y = new Float64Array(rows * cols);
  for (let r = 0; r < rows; r++) {
    let max = -Infinity;
    for (let c = 0; c < cols; c++) max = Math.max(max, x[r * cols + c]);
    let sum = 0;
    for (let c = 0; c < cols; c++) sum += Math.exp(x[r * cols + c] - max);
    const lse = max + Math.log(sum);
    for (let c = 0; c < cols; c++) y[r * cols + c] = x[r * cols + c] - lse;
  }
  return y;
}

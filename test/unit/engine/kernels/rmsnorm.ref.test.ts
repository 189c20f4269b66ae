// rmsnormBackwardRef against central differences of rmsnormRef, for the layer norm and per-head q/k norm.
import { describe, it } from 'vitest';
import { rmsnormBackwardRef, rmsnormRef } from '../../../../src/engine/kernels/index.ts';
import { randomTensor } from '../../../support/check-tensor.ts';
import { checkGradient, weightedSum } from '../../../support/finite-difference.ts';

describe.each([
  { what: 'rows of the hidden size', rows: 3, dim: 8, eps: 1e-6 },
  { what: 'per-head q/k norm (rows = T * heads)', rows: 2 * 3, dim: 4, eps: 1e-2 },
])('rmsnormBackwardRef, $what', ({ rows, dim, eps }) => {
  const x = randomTensor(rows * dim, 3, -2, 2);
  const w = randomTensor(dim, 4, 0.5, 1.5);
  const dy = randomTensor(rows * dim, 5);
  const { dx, dweight } = rmsnormBackwardRef(dy, x, w, rows, dim, eps);

  it('dx is the gradient of sum(dy * rmsnorm(x, w)) with respect to x', () => {
    checkGradient('dx', (xs) => weightedSum(dy, rmsnormRef(xs, w, rows, dim, eps)), x, dx);
  });

  it('dweight is its gradient with respect to w, summed over rows', () => {
    checkGradient('dweight', (ws) => weightedSum(dy, rmsnormRef(x, ws, rows, dim, eps)), w, dweight);
  });
});

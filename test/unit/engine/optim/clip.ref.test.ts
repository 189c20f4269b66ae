// Global-norm clipping against clip_grad_norm_'s formulas: the norm of all gradients as one vector
// (here Math.hypot over their concatenation, an independent route), coefficient maxNorm / (norm + 1e-6)
// capped at 1.
import { describe, expect, it } from 'vitest';
import { clipCoefficient, globalNorm, sumSquaresRef } from '../../../../src/engine/optim/index.ts';
import { randomTensor } from '../../../support/check-tensor.ts';

describe('global gradient-norm clipping', () => {
  it('takes the norm over all gradients together', () => {
    // [3] and [4]: norm 5, scaled to 1 by 1 / (5 + 1e-6).
    const s = sumSquaresRef([[3], [4]]);
    expect(s).toEqual({ sumSquares: 25, nonFinite: 0 });
    expect(globalNorm(s)).toBe(5);
    expect(clipCoefficient(5, 1)).toBeCloseTo(1 / 5.000001, 15);
  });

  it('agrees with the norm of the concatenated gradients', () => {
    const grads = [randomTensor(13, 1), randomTensor(40, 2, -3, 3), randomTensor(5, 3)];
    expect(globalNorm(sumSquaresRef(grads))).toBeCloseTo(Math.hypot(...grads.flatMap((g) => Array.from(g))), 12);
  });

  it('never scales gradients up', () => {
    expect(clipCoefficient(0.5, 1)).toBe(1);
    expect(clipCoefficient(0, 1)).toBe(1);
    expect(clipCoefficient(3, Infinity)).toBe(1);
    expect(clipCoefficient(2, 1)).toBeCloseTo(1 / 2.000001, 15);
  });

  it('counts NaN and infinite values apart and gives no norm for them', () => {
    const s = sumSquaresRef([[1, NaN, 2], [Infinity], [-Infinity, 2]]);
    expect(s).toEqual({ sumSquares: 9, nonFinite: 3 });
    expect(globalNorm(s)).toBeNaN();
  });
});

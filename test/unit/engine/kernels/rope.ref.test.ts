// ropeBackwardRef against central differences of ropeRef, on random inputs at positions far from 0.
import { describe, expect, it } from 'vitest';
import { ropeBackwardRef, ropeRef } from '../../../../src/engine/kernels/index.ts';
import { randomTensor } from '../../../support/check-tensor.ts';
import { checkGradient } from '../../../support/finite-difference.ts';

describe('ropeBackwardRef', () => {
  const [T, heads, D, startPos] = [3, 2, 8, 37];
  const invFreq = Array.from({ length: D / 2 }, (_, i) => 1 / Math.pow(10000, (2 * i) / D));

  it('is the gradient of sum(w * ropeRef(x))', () => {
    const x = randomTensor(T * heads * D, 1);
    const w = randomTensor(T * heads * D, 2);
    const loss = (xs: Float64Array) => ropeRef(xs, T, heads, D, invFreq, startPos).reduce((acc, y, i) => acc + y * w[i], 0);
    checkGradient('rope dx', loss, x, ropeBackwardRef(w, T, heads, D, invFreq, startPos));
  });

  it('undoes ropeRef (the rotation is orthogonal)', () => {
    const x = randomTensor(T * heads * D, 3);
    const back = ropeBackwardRef(ropeRef(x, T, heads, D, invFreq, startPos), T, heads, D, invFreq, startPos);
    back.forEach((v, i) => expect(v).toBeCloseTo(x[i], 12));
  });
});

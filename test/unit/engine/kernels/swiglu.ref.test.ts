// swigluBackwardRef against central differences of swigluRef.
import { describe, it } from 'vitest';
import { swigluBackwardRef, swigluRef } from '../../../../src/engine/kernels/index.ts';
import { randomTensor } from '../../../support/check-tensor.ts';
import { checkGradient, weightedSum } from '../../../support/finite-difference.ts';

describe('swigluBackwardRef', () => {
  const n = 12;
  const gate = randomTensor(n, 12, -5, 5);
  const up = randomTensor(n, 13, -2, 2);
  const dy = randomTensor(n, 14);
  const { dgate, dup } = swigluBackwardRef(dy, gate, up);

  it('dgate is the gradient of sum(dy * silu(gate) * up) with respect to gate', () => {
    checkGradient('dgate', (g) => weightedSum(dy, swigluRef(g, up)), gate, dgate);
  });

  it('dup is its gradient with respect to up', () => {
    checkGradient('dup', (u) => weightedSum(dy, swigluRef(gate, u)), up, dup);
  });
});

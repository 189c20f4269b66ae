// logprobsBackwardRef against central differences of logprobsRef at several temperatures; entropyRef by hand.
import { describe, expect, it } from 'vitest';
import { entropyRef, logprobsBackwardRef, logprobsRef } from '../../../../src/engine/kernels/index.ts';
import { randomTensor } from '../../../support/check-tensor.ts';
import { checkGradient, weightedSum } from '../../../support/finite-difference.ts';

describe('logprobs references', () => {
  const R = 3;
  const V = 6;
  const logits = randomTensor(R * V, 15, -3, 3);
  const targets = [4, 0, 5];
  const dLogp = randomTensor(R, 16, 0.5, 1.5);

  it.each([1, 0.7, 1.3])('dLogits is the gradient of sum(dLogp * logp(target)) at temperature %s', (temperature) => {
    checkGradient(
      'dLogits',
      (z) => weightedSum(dLogp, logprobsRef(z, targets, R, V, temperature)),
      logits,
      logprobsBackwardRef(logits, targets, dLogp, R, V, temperature),
    );
  });

  it('logp divides the logits by the temperature', () => {
    // Row [0, ln 3] at temperature 0.5 is row [0, 2 ln 3]: p = [1/10, 9/10].
    const logp = logprobsRef([0, Math.log(3)], [1], 1, 2, 0.5);
    expect(logp[0]).toBeCloseTo(Math.log(0.9), 12);
  });

  it('entropy is log V for equal logits and -sum p log p otherwise, at the temperature', () => {
    expect(entropyRef([2, 2, 2, 2], 1, 4, 0.7)[0]).toBeCloseTo(Math.log(4), 12);
    // Row [0, ln 3 / 2] at temperature 0.5 is row [0, ln 3]: p = [1/4, 3/4].
    const [h] = entropyRef([0, Math.log(3) / 2], 1, 2, 0.5);
    expect(h).toBeCloseTo(-(0.25 * Math.log(0.25) + 0.75 * Math.log(0.75)), 12);
  });
});

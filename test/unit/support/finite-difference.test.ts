// The gradient check itself, on functions whose gradients are known in closed form.
import { describe, expect, it } from 'vitest';
import { randomTensor } from '../../support/check-tensor.ts';
import { checkGradient, numericGradient } from '../../support/finite-difference.ts';

const logSumExp = (x: Float64Array) => {
  const max = Math.max(...x);
  return max + Math.log(x.reduce((s, v) => s + Math.exp(v - max), 0));
};
const softmax = (x: ArrayLike<number>) => {
  const e = Array.from(x, (v) => Math.exp(v));
  const sum = e.reduce((a, b) => a + b, 0);
  return e.map((v) => v / sum);
};

describe('finite differences', () => {
  const x = Float64Array.from(randomTensor(12, 7, -2, 2));

  it('recovers a known gradient (log-sum-exp: softmax) to float64 precision', () => {
    const numeric = numericGradient(logSumExp, x);
    softmax(x).forEach((g, i) => expect(numeric[i]).toBeCloseTo(g, 9));
  });

  it('passes a right gradient and fails a wrong one, naming the index', () => {
    expect(() => checkGradient('lse', logSumExp, x, softmax(x))).not.toThrow();
    const wrong = softmax(x);
    wrong[5] *= 1.01;
    expect(() => checkGradient('lse', logSumExp, x, wrong)).toThrow(/\[5\]/);
  });

  it('checks only the indices asked for, in their order, and leaves x as it was', () => {
    const before = Float64Array.from(x);
    const g = numericGradient((v) => v[3] * v[3] + 2 * v[9], x, { indices: [9, 3] });
    expect(g[0]).toBeCloseTo(2, 9);
    expect(g[1]).toBeCloseTo(2 * x[3], 9);
    expect(x).toEqual(before);
  });
});

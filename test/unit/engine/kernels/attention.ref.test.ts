// attentionForwardRef's log-sum-exp by hand, and attentionBackwardRef against central differences of
// attentionRef on random inputs: grouped heads (H / KV = 2), with and without a prefix of cached keys.
import { describe, expect, it } from 'vitest';
import { attentionBackwardRef, attentionForwardRef, attentionRef, type AttentionShape } from '../../../../src/engine/kernels/index.ts';
import { randomTensor } from '../../../support/check-tensor.ts';
import { checkGradient } from '../../../support/finite-difference.ts';

describe('attentionForwardRef', () => {
  it('returns the log-sum-exp of each row\'s visible scaled scores', () => {
    // D = 4 (scale 1/2), one kv head, two query heads, keys [1,1,1,1] and [2,2,2,2].
    const q = [1, 1, 1, 1, -1, -1, -1, -1, 1, 1, 1, 1, 0.5, 0.5, 0.5, 0.5]; // (T=2, H=2, D=4)
    const k = [1, 1, 1, 1, 2, 2, 2, 2];
    const { lse } = attentionForwardRef(q, k, k, { T: 2, S: 2, H: 2, KV: 1, D: 4 });
    // Query 0 sees key 0 only (scores 2 and -2); query 1 sees both (scores 2, 4 and 1, 2).
    const expected = [2, -2, Math.log(Math.exp(2) + Math.exp(4)), Math.log(Math.exp(1) + Math.exp(2))];
    expected.forEach((v, i) => expect(lse[i]).toBeCloseTo(v, 12));
  });
});

describe('attentionBackwardRef', () => {
  it.each([
    { name: 'prefill', T: 4, S: 4, H: 4, KV: 2, D: 4 },
    { name: 'a prefix of 3 cached keys', T: 3, S: 6, H: 4, KV: 2, D: 4 },
    { name: 'one kv head for all', T: 2, S: 5, H: 2, KV: 1, D: 6 },
  ])('is the gradient of sum(w * attention) in q, k and v: $name', ({ T, S, H, KV, D }) => {
    const shape: AttentionShape = { T, S, H, KV, D };
    const q = randomTensor(T * H * D, 11, -2, 2);
    const k = randomTensor(S * KV * D, 12, -2, 2);
    const v = randomTensor(S * KV * D, 13);
    const w = randomTensor(T * H * D, 14);
    const dot = (out: Float64Array) => out.reduce((acc, y, i) => acc + y * w[i], 0);
    const { dq, dk, dv } = attentionBackwardRef(w, q, k, v, shape);
    checkGradient('dq', (x) => dot(attentionRef(x, k, v, shape)), q, dq);
    checkGradient('dk', (x) => dot(attentionRef(q, x, v, shape)), k, dk);
    checkGradient('dv', (x) => dot(attentionRef(q, k, x, shape)), v, dv);
  });
});

// attentionForwardRef's log-sum-exp by hand; a packed pass's visibility rule against each sequence's
// causal attention on its own; and attentionBackwardRef against central differences of attentionRef
// on random inputs: grouped heads (H / KV = 2), with and without a prefix of cached keys, and packed.
import { describe, expect, it } from 'vitest';
import { attentionBackwardRef, attentionForwardRef, attentionRef, packedVisibility, type AttentionShape } from '../../../../src/engine/kernels/index.ts';
import { checkTensor } from '../../../support/check-tensor.ts';
import { randomTensor } from '../../../support/check-tensor.ts';
import { checkGradient } from '../../../support/finite-difference.ts';

describe('attentionForwardRef', () => {
  it("returns the log-sum-exp of each row's visible scaled scores", () => {
    // D = 4 (scale 1/2), one kv head, two query heads, keys [1,1,1,1] and [2,2,2,2].
    const q = [1, 1, 1, 1, -1, -1, -1, -1, 1, 1, 1, 1, 0.5, 0.5, 0.5, 0.5]; // (T=2, H=2, D=4)
    const k = [1, 1, 1, 1, 2, 2, 2, 2];
    const { lse } = attentionForwardRef(q, k, k, { T: 2, S: 2, H: 2, KV: 1, D: 4 });
    // Query 0 sees key 0 only (scores 2 and -2); query 1 sees both (scores 2, 4 and 1, 2).
    const expected = [2, -2, Math.log(Math.exp(2) + Math.exp(4)), Math.log(Math.exp(1) + Math.exp(2))];
    expected.forEach((v, i) => expect(lse[i]).toBeCloseTo(v, 12));
  });
});

describe('attentionRef with a packed visibility rule', () => {
  it("gives each segment's rows the causal attention of its sequence alone (its prompt's rows, then its own)", () => {
    const [H, KV, D] = [4, 2, 4];
    const blocks = [
      { shared: 3, segments: [2, 3] },
      { shared: 2, segments: [1] },
    ];
    const visibility = packedVisibility(blocks);
    const T = visibility.length / 4;
    const q = randomTensor(T * H * D, 21, -2, 2);
    const k = randomTensor(T * KV * D, 22, -2, 2);
    const v = randomTensor(T * KV * D, 23);
    const packed = attentionRef(q, k, v, { T, S: T, H, KV, D, visibility });
    // Each sequence unpacked: its block's shared rows, then its segment's rows.
    const pick = (x: Float32Array | Float64Array, width: number, rows: number[]) =>
      Float64Array.from(rows.flatMap((r) => Array.from(x.subarray(r * width, (r + 1) * width))));
    let start = 0;
    for (const { shared, segments } of blocks) {
      const prompt = Array.from({ length: shared }, (_, i) => start + i);
      let at = start + shared;
      for (const n of segments) {
        const rows = [...prompt, ...Array.from({ length: n }, (_, i) => at + i)];
        const alone = attentionRef(pick(q, H * D, rows), pick(k, KV * D, rows), pick(v, KV * D, rows), { T: rows.length, S: rows.length, H, KV, D });
        checkTensor(`sequence at row ${at}`, pick(packed, H * D, rows), alone);
        at += n;
      }
      start = at;
    }
  });
});

describe('attentionBackwardRef', () => {
  it.each([
    { name: 'prefill', T: 4, S: 4, H: 4, KV: 2, D: 4 },
    { name: 'a prefix of 3 cached keys', T: 3, S: 6, H: 4, KV: 2, D: 4 },
    { name: 'one kv head for all', T: 2, S: 5, H: 2, KV: 1, D: 6 },
    {
      name: 'packed: a prompt shared by two segments, then a sequence alone',
      T: 9,
      S: 9,
      H: 4,
      KV: 2,
      D: 4,
      blocks: [
        { shared: 2, segments: [2, 3] },
        { shared: 1, segments: [1] },
      ],
    },
  ])('is the gradient of sum(w * attention) in q, k and v: $name', ({ T, S, H, KV, D, blocks }) => {
    const shape: AttentionShape = { T, S, H, KV, D, ...(blocks ? { visibility: packedVisibility(blocks) } : {}) };
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

// Hand-worked cases for each reference op; the whole-model properties live in forward.ref.test.ts.
import { describe, expect, it } from 'vitest';
import { attentionRef, embeddingRef, logSoftmaxRef, matmulRef, rmsnormRef, ropeRef, swigluRef } from '../../../../src/engine/kernels/index.ts';

const close = (a: ArrayLike<number>, b: number[], digits = 12) => {
  expect(a.length).toBe(b.length);
  b.forEach((v, i) => expect(a[i]).toBeCloseTo(v, digits));
};

describe('reference ops', () => {
  it('rmsnorm divides each row by its root mean square, then scales by the weight', () => {
    // Row [3, 4]: mean square 12.5. Row [1, -1]: mean square 1.
    const r = Math.sqrt(12.5);
    close(rmsnormRef([3, 4, 1, -1], [1, 2], 2, 2, 0), [3 / r, 8 / r, 1, -2]);
    close(rmsnormRef([0.5, 0.5], [1, 1], 1, 2, 0.75), [0.5, 0.5]); // sqrt(0.25 + 0.75) = 1
  });

  it('matmul computes x W^T + b with W in (out, in) layout', () => {
    // x (2, 3), W (2, 3): y[t][o] = sum_i x[t][i] W[o][i] + b[o]
    const y = matmulRef([1, 2, 3, -1, 0, 2], [1, 0, -1, 2, 1, 0.5], [10, 20], 2, 3, 2);
    close(y, [1 - 3 + 10, 2 + 2 + 1.5 + 20, -1 - 2 + 10, -2 + 1 + 20]);
    close(matmulRef([1, 2], [3, 4], undefined, 1, 2, 1), [11]);
  });

  it('rope rotates dimension i with i + D/2 by position * invFreq[i]', () => {
    // One head, D = 4: pairs (0, 2) at frequency 1 and (1, 3) at 0.5.
    const x = [1, 2, 3, 4];
    close(ropeRef(x, 1, 1, 4, [1, 0.5], 0), x); // position 0: identity
    const [c1, s1, c5, s5] = [Math.cos(2), Math.sin(2), Math.cos(1), Math.sin(1)];
    close(ropeRef(x, 1, 1, 4, [1, 0.5], 2), [1 * c1 - 3 * s1, 2 * c5 - 4 * s5, 3 * c1 + 1 * s1, 4 * c5 + 2 * s5]);
    // Two tokens from startPos 1: the second sits at position 2, as above; heads rotate alike.
    const two = ropeRef([0, 0, 0, 0, 0, 0, 0, 0, ...x, ...x], 2, 2, 4, [1, 0.5], 1);
    close(two.slice(8, 12), [...ropeRef(x, 1, 1, 4, [1, 0.5], 2)]);
    close(two.slice(12, 16), [...ropeRef(x, 1, 1, 4, [1, 0.5], 2)]);
  });

  it('attention is causal, scaled by 1/sqrt(D), and shares kv heads across query groups', () => {
    // D = 1, one kv head, two query heads. Keys [1, 2], values [10, 20].
    const q = [0.5, -1, 1, 2]; // (T=2, H=2, D=1)
    const out = attentionRef(q, [1, 2], [10, 20], { T: 2, S: 2, H: 2, KV: 1, D: 1 });
    const mix = (qv: number) => {
      const [a, b] = [Math.exp(qv * 1), Math.exp(qv * 2)];
      return (10 * a + 20 * b) / (a + b);
    };
    close(out, [10, 10, mix(1), mix(2)]); // the first token sees only itself
    // Decoding one query against a cache of two keys: it sees both.
    close(attentionRef([1, 2], [1, 2], [10, 20], { T: 1, S: 2, H: 2, KV: 1, D: 1 }), [mix(1), mix(2)]);
    // D = 4: scores are divided by 2.
    const out4 = attentionRef([1, 1, 1, 1], [0, 0, 0, 0, 1, 1, 1, 1], [0, 0, 0, 0, 1, 1, 1, 1], { T: 1, S: 2, H: 1, KV: 1, D: 4 });
    const p = Math.exp(2) / (1 + Math.exp(2));
    close(out4, [p, p, p, p]);
  });

  it('attention maps query head h to kv head floor(h / (H / KV))', () => {
    // H = 4, KV = 2, D = 1, one token: each head outputs its kv head's value.
    close(attentionRef([1, 1, 1, 1], [1, 1], [7, 9], { T: 1, S: 1, H: 4, KV: 2, D: 1 }), [7, 7, 9, 9]);
  });

  it('swiglu is silu(gate) * up', () => {
    close(swigluRef([0, 1, -2], [5, 2, 3]), [0, 2 / (1 + Math.exp(-1)), (3 * -2) / (1 + Math.exp(2))]);
  });

  it('embedding picks rows', () => {
    close(embeddingRef([0, 1, 10, 11, 20, 21], [2, 0, 2], 2), [20, 21, 0, 1, 20, 21]);
  });

  it('log softmax is stable for large logits', () => {
    close(logSoftmaxRef([1000, 1000, 0, Math.log(3)], 2, 2), [-Math.log(2), -Math.log(2), -Math.log(4), Math.log(3 / 4)]);
  });
});

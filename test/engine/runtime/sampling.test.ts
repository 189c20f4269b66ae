import { describe, expect, it } from 'vitest';
import { seededRandom } from '../../../src/core/random.ts';
import { BatonError } from '../../../src/core/errors/index.ts';
import { logSoftmaxRef } from '../../../src/engine/kernels/index.ts';
import { createSampler, logSoftmax } from '../../../src/engine/runtime/index.ts';

const LOGITS = Float32Array.from([0.5, 2, -1, 1.5, 0]);

/** The expected log softmax(z / T): the float64 reference, never the module under test. */
function expectedLogp(logits: Float32Array, temperature = 1): Float64Array {
  return logSoftmaxRef(Array.from(logits, (z) => z / temperature), 1, logits.length);
}

describe('logSoftmax', () => {
  it('matches values worked out by hand and the float64 reference, at any temperature', () => {
    // log(e^0.5 + e^2 + e^-1 + e^1.5 + e^0) = 2.7005115823954431
    const byHand = [0.5, 2, -1, 1.5, 0].map((z) => z - 2.7005115823954431);
    logSoftmax(LOGITS).forEach((lp, i) => expect(lp).toBeCloseTo(byHand[i], 12));
    const random = seededRandom(3);
    const logits = Float32Array.from({ length: 1000 }, () => (random() - 0.5) * 20);
    for (const temperature of [1, 0.7, 2.5]) {
      const got = logSoftmax(logits, temperature);
      const want = expectedLogp(logits, temperature);
      got.forEach((lp, i) => expect(lp).toBeCloseTo(want[i], 10));
    }
  });
});

describe('createSampler', () => {
  it('is greedy at temperature 0, with the logprob at temperature 1', () => {
    const { token, logprob } = createSampler()(LOGITS);
    expect(token).toBe(1);
    expect(logprob).toBeCloseTo(expectedLogp(LOGITS)[1], 12);
  });

  it('draws from softmax(z / T) in the right proportions, reporting log p under T', () => {
    const temperature = 0.8;
    const sample = createSampler({ temperature, seed: 1 });
    const p = Array.from(expectedLogp(LOGITS, temperature), Math.exp);
    const counts = new Array(LOGITS.length).fill(0);
    const draws = 20000;
    for (let i = 0; i < draws; i++) {
      const { token, logprob } = sample(LOGITS);
      counts[token]++;
      if (i < 10) expect(logprob).toBeCloseTo(Math.log(p[token]), 12);
    }
    counts.forEach((c, i) => expect(Math.abs(c / draws - p[i])).toBeLessThan(0.015));
  });

  it('repeats itself for a seed and differs across seeds', () => {
    const run = (seed: number) => {
      const sample = createSampler({ temperature: 1, seed });
      return Array.from({ length: 30 }, () => sample(LOGITS).token);
    };
    expect(run(5)).toEqual(run(5));
    expect(run(5)).not.toEqual(run(6));
  });

  it('keeps to the top-k and the top-p nucleus', () => {
    const topK = createSampler({ temperature: 2, topK: 2, seed: 2 });
    const topP = createSampler({ temperature: 1, topP: 0.5, seed: 3 });
    const seenK = new Set<number>();
    const seenP = new Set<number>();
    for (let i = 0; i < 300; i++) {
      seenK.add(topK(LOGITS).token);
      seenP.add(topP(LOGITS).token);
    }
    expect([...seenK].sort()).toEqual([1, 3]);
    // p(1) = 0.496 < 0.5, so the nucleus also takes token 3 (p = 0.30).
    expect([...seenP].sort()).toEqual([1, 3]);
  });

  it('keeps to the top-k of a large vocabulary, ties going to the lower id', () => {
    const logits = Float32Array.from({ length: 500 }, (_, i) => Math.sin(i * 12.9898) * 3);
    logits[17] = logits[400] = 10; // a tie at the top
    logits[250] = 9.5;
    const best = Array.from(logits.keys()).sort((a, b) => logits[b] - logits[a] || a - b);
    const sample = createSampler({ temperature: 50, topK: 5, seed: 6 });
    const seen = new Set<number>();
    for (let i = 0; i < 400; i++) seen.add(sample(logits).token);
    expect([...seen].sort((a, b) => a - b)).toEqual(best.slice(0, 5).sort((a, b) => a - b));
    const top1 = createSampler({ temperature: 50, topK: 1, seed: 7 });
    expect(top1(logits).token).toBe(17);
  });

  it('draws from the top-p nucleus of a large vocabulary exactly as sorting it all would', () => {
    // The reference sorts every id, keeps the shortest prefix holding p, and draws with the same
    // uniform stream; peaked and flat distributions, with and without a mask.
    const reference = (logits: Float32Array, temperature: number, topP: number, seed: number, allowed?: Uint32Array) => {
      const uniform = seededRandom(seed);
      const logp = expectedLogp(logits, temperature);
      const ok = (id: number) => !allowed || ((allowed[id >>> 5] >>> (id & 31)) & 1) === 1;
      const ids = Array.from(logp.keys()).filter(ok);
      const mass = allowed ? ids.reduce((sum, i) => sum + Math.exp(logp[i]), 0) : 1;
      ids.sort((a, b) => logp[b] - logp[a] || a - b);
      let held = 0;
      let keep = 0;
      while (keep < ids.length && held < topP * mass) held += Math.exp(logp[ids[keep++]]);
      const kept = ids.slice(0, keep);
      return () => {
        let u = uniform() * kept.reduce((sum, i) => sum + Math.exp(logp[i]), 0);
        for (const i of kept) {
          u -= Math.exp(logp[i]);
          if (u < 0) return i;
        }
        return kept[kept.length - 1];
      };
    };
    const V = 20_000;
    const random = seededRandom(11);
    const mask = Uint32Array.from({ length: V / 32 }, () => (random() * 2 ** 32) >>> 0);
    for (const [scale, temperature, topP] of [[12, 1, 0.9], [2, 0.7, 0.95], [0.3, 1, 0.5], [20, 1.3, 0.99]]) {
      const logits = Float32Array.from({ length: V }, () => (random() - 0.5) * scale + (random() < 0.001 ? 15 : 0));
      for (const allowed of [undefined, mask]) {
        const draw = reference(logits, temperature, topP, 21, allowed);
        const sample = createSampler({ temperature, topP, seed: 21 });
        for (let i = 0; i < 20; i++) expect(sample(logits, allowed).token).toBe(draw());
      }
    }
  });

  it('rejects settings that mean nothing', () => {
    for (const bad of [{ temperature: -1 }, { topK: 1.5 }, { topP: 0 }, { topP: 1.2 }]) {
      expect(() => createSampler(bad)).toThrow(BatonError);
    }
  });

  it('draws only allowed tokens from a mask, still reporting the unmasked logprob', () => {
    const allowed = Uint32Array.of((1 << 0) | (1 << 2) | (1 << 4)); // ids 0, 2, 4
    const full = expectedLogp(LOGITS, 1.5);
    const greedy = createSampler()(LOGITS, allowed);
    expect(greedy.token).toBe(0);
    expect(greedy.logprob).toBeCloseTo(expectedLogp(LOGITS)[0], 12);
    const sample = createSampler({ temperature: 1.5, seed: 4 });
    const counts = new Map<number, number>();
    for (let i = 0; i < 3000; i++) {
      const { token, logprob } = sample(LOGITS, allowed);
      expect(logprob).toBeCloseTo(full[token], 12);
      counts.set(token, (counts.get(token) ?? 0) + 1);
    }
    expect([...counts.keys()].sort()).toEqual([0, 2, 4]);
    // In proportion to p renormalised over the allowed ids.
    const z = Math.exp(full[0]) + Math.exp(full[2]) + Math.exp(full[4]);
    expect(Math.abs(counts.get(0)! / 3000 - Math.exp(full[0]) / z)).toBeLessThan(0.03);
    // top-p over the allowed ids: p(0 | allowed) = 0.48 alone fills a 0.4 nucleus (unmasked, p(0) is 0.15).
    const nucleus = createSampler({ temperature: 1.5, topP: 0.4, seed: 5 });
    for (let i = 0; i < 50; i++) expect(nucleus(LOGITS, allowed).token).toBe(0);
    expect(() => createSampler()(LOGITS, new Uint32Array(1))).toThrow(BatonError);
  });
});

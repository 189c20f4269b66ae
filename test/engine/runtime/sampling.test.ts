import { describe, expect, it } from 'vitest';
import { seededRandom } from '../../../src/core/random.ts';
import { BatonError } from '../../../src/core/errors/index.ts';
import { logSoftmaxRef } from '../../../src/engine/kernels/index.ts';
import { createSampler, logSoftmax } from '../../../src/engine/runtime/index.ts';

const LOGITS = Float32Array.from([0.5, 2, -1, 1.5, 0]);

/** The expected log softmax(z / T): the float64 reference, never the module under test. */
function expectedLogp(logits: Float32Array, temperature = 1): Float64Array {
  return logSoftmaxRef(
    Array.from(logits, (z) => z / temperature),
    1,
    logits.length,
  );
}

/**
 * The sampling definition (runtime/sampling.ts) the slow way: sort every allowed id by logit, cut the
 * top-k at the k-th (ties kept), then the shortest prefix holding p of the rest's mass (ties kept),
 * and walk the kept ids in id order with the same uniform stream, `draws` times.
 */
function sortingSampler({ temperature, topK, topP, seed }: { temperature: number; topK: number; topP: number; seed: number }) {
  const uniform = seededRandom(seed);
  return (logits: Float32Array, allowed: Uint32Array | undefined, draws: number) => {
    const p = Array.from(expectedLogp(logits, temperature), Math.exp);
    const ok = (id: number) => !allowed || ((allowed[id >>> 5] >>> (id & 31)) & 1) === 1;
    let kept = Array.from(logits.keys())
      .filter(ok)
      .sort((a, b) => logits[b] - logits[a]);
    const prefix = (n: number) => {
      while (n < kept.length && logits[kept[n]] === logits[kept[n - 1]]) n++;
      kept = kept.slice(0, n);
    };
    if (topK > 0 && topK < kept.length) prefix(topK);
    if (topP < 1) {
      const target = topP * kept.reduce((sum, id) => sum + p[id], 0);
      let [held, n] = [0, 0];
      while (n < kept.length && held < target) held += p[kept[n++]];
      prefix(n);
    }
    kept.sort((a, b) => a - b);
    const total = kept.reduce((sum, id) => sum + p[id], 0);
    return Array.from({ length: draws }, () => {
      let u = uniform() * total;
      for (const id of kept) {
        u -= p[id];
        if (u < 0) return id;
      }
      return kept[kept.length - 1];
    });
  };
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

  it('keeps every id tied with the k-th largest logit', () => {
    const logits = Float32Array.from({ length: 500 }, (_, i) => Math.sin(i * 12.9898) * 3);
    logits[17] = logits[400] = 10; // a tie at the top
    logits[250] = 9.5;
    const sample = (topK: number, seed: number) => {
      const draw = createSampler({ temperature: 50, topK, seed });
      const seen = new Set<number>();
      for (let i = 0; i < 400; i++) seen.add(draw(logits).token);
      return [...seen].sort((a, b) => a - b);
    };
    expect(sample(1, 7)).toEqual([17, 400]);
    expect(sample(2, 8)).toEqual([17, 400]);
    expect(sample(3, 9)).toEqual([17, 250, 400]);
  });

  it('draws exactly as a reference that sorts the whole vocabulary: top-k, top-p, both, masks, ties', () => {
    const V = 20_000;
    const random = seededRandom(11);
    const mask = Uint32Array.from({ length: V / 32 }, () => (random() * 2 ** 32) >>> 0);
    // Peaked rows (a few ids far above the rest) and flat ones; nuclei that take the tail of a flat row or of the
    // cloud under the peaks.
    const cases = [
      { scale: 12, peak: 15, temperature: 1, topK: 0, topP: 0.9 },
      { scale: 2, peak: 15, temperature: 0.7, topK: 0, topP: 0.95 },
      { scale: 0.3, peak: 0, temperature: 1, topK: 0, topP: 0.5 },
      { scale: 20, peak: 15, temperature: 1.3, topK: 0, topP: 0.99 },
      { scale: 30, peak: 0, temperature: 1, topK: 0, topP: 0.9999 },
      { scale: 1, peak: 8, temperature: 1, topK: 0, topP: 0.9 },
      { scale: 4, peak: 0, temperature: 1, topK: 1, topP: 1 },
      { scale: 4, peak: 0, temperature: 0.9, topK: 37, topP: 1 },
      { scale: 4, peak: 0, temperature: 1, topK: 5000, topP: 1 },
      { scale: 4, peak: 0, temperature: 1, topK: V, topP: 1 },
      { scale: 3, peak: 0, temperature: 1.1, topK: 200, topP: 0.8 },
      { scale: 12, peak: 15, temperature: 1, topK: 3, topP: 0.3 },
      { scale: 12, peak: 15, temperature: 1, topK: 10, topP: 0.95 },
      { scale: 0.5, peak: 0, temperature: 1, topK: 1000, topP: 0.5 },
    ];
    for (const { scale, peak, temperature, topK, topP } of cases) {
      // Every other row rounded to quarters, so that ties sit at every boundary.
      for (const ties of [false, true]) {
        const logits = Float32Array.from({ length: V }, () => (random() - 0.5) * scale + (random() < 0.001 ? peak : 0));
        if (ties) logits.forEach((z, i) => (logits[i] = Math.round(z * 4) / 4));
        for (const allowed of [undefined, mask]) {
          const options = { temperature, topK, topP, seed: 21 };
          const sample = createSampler(options);
          const got = Array.from({ length: 20 }, () => sample(logits, allowed).token);
          expect({ ...options, ties, masked: !!allowed, got }).toEqual({
            ...options,
            ties,
            masked: !!allowed,
            got: sortingSampler(options)(logits, allowed, 20),
          });
        }
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
    for (const options of [{}, { temperature: 1 }, { temperature: 1, topK: 2 }, { temperature: 1, topP: 0.5 }, { temperature: 1, topK: 2, topP: 0.5 }]) {
      expect(() => createSampler(options)(LOGITS, new Uint32Array(1))).toThrow(BatonError);
    }
  });
});

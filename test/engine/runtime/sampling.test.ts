import { describe, expect, it } from 'vitest';
import { BatonError } from '../../../src/core/errors/index.ts';
import { createSampler, logSoftmax } from '../../../src/engine/runtime/index.ts';

const LOGITS = Float32Array.from([0.5, 2, -1, 1.5, 0]);

describe('createSampler', () => {
  it('is greedy at temperature 0, with the logprob at temperature 1', () => {
    const { token, logprob } = createSampler()(LOGITS);
    expect(token).toBe(1);
    expect(logprob).toBeCloseTo(logSoftmax(LOGITS)[1], 12);
  });

  it('draws from softmax(z / T) in the right proportions, reporting log p under T', () => {
    const temperature = 0.8;
    const sample = createSampler({ temperature, seed: 1 });
    const p = Array.from(logSoftmax(LOGITS, temperature), Math.exp);
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

  it('rejects settings that mean nothing', () => {
    for (const bad of [{ temperature: -1 }, { topK: 1.5 }, { topP: 0 }, { topP: 1.2 }]) {
      expect(() => createSampler(bad)).toThrow(BatonError);
    }
  });
});

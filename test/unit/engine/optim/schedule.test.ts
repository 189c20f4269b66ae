// Learning-rate factors against transformers' schedules, pinned from their formulas by hand:
// warm-up step / warmupSteps; cosine 0.5 * (1 + cos(pi * numCycles * 2 * progress)), progress =
// (step - warmup) / (total - warmup).
import { describe, expect, it } from 'vitest';
import { BatonError } from '../../../../src/core/errors/index.ts';
import { learningRate, lrFactor, validateSchedule, type LrSchedule } from '../../../../src/engine/optim/index.ts';

const factors = (s: LrSchedule, steps: number[]) => steps.map((t) => lrFactor(s, t));

describe('learning-rate schedules', () => {
  it('constant: the peak rate from the first step without warm-up', () => {
    expect(factors({ kind: 'constant' }, [0, 1, 100])).toEqual([1, 1, 1]);
  });

  it('constant with warm-up: linear from 0, the first step at 0', () => {
    expect(factors({ kind: 'constant', warmupSteps: 4 }, [0, 1, 2, 3, 4, 5])).toEqual([0, 0.25, 0.5, 0.75, 1, 1]);
  });

  it('cosine with warm-up: up linearly, then half a cosine down to 0 at totalSteps', () => {
    const s: LrSchedule = { kind: 'cosine', warmupSteps: 2, totalSteps: 10 };
    // step 3: progress 1/8, 0.5 (1 + cos(pi/8)); step 4: 0.5 (1 + cos(pi/4)); step 6: half-way; step 10: 0.
    const want = [0, 0.5, 1, 0.9619397662556434, 0.8535533905932737, 0.5, 0];
    factors(s, [0, 1, 2, 3, 4, 6, 10]).forEach((f, i) => expect(f).toBeCloseTo(want[i], 14));
  });

  it('cosine without warm-up starts at the peak; past the end it follows the cosine as transformers does', () => {
    const s: LrSchedule = { kind: 'cosine', totalSteps: 4 };
    expect(lrFactor(s, 0)).toBe(1);
    expect(lrFactor(s, 2)).toBeCloseTo(0.5, 15);
    // step 5: progress 1.25, 0.5 (1 + cos(1.25 pi)) = 0.5 (1 - sqrt(2) / 2).
    expect(lrFactor(s, 5)).toBeCloseTo(0.5 * (1 - Math.SQRT1_2), 15);
  });

  it('numCycles 1 comes back up to the peak at the end', () => {
    expect(lrFactor({ kind: 'cosine', totalSteps: 8, numCycles: 1 }, 8)).toBeCloseTo(1, 15);
  });

  it('multiplies the peak rate', () => {
    expect(learningRate(2e-4, { kind: 'constant', warmupSteps: 4 }, 1)).toBeCloseTo(5e-5, 18);
  });

  it('rejects schedules a run cannot follow, naming the field', () => {
    const codeOf = (s: LrSchedule) => {
      try {
        validateSchedule(s);
        return undefined;
      } catch (e) {
        return BatonError.is(e, 'run/config') ? (e.data as { field: string }).field : 'other';
      }
    };
    expect(codeOf({ kind: 'cosine', totalSteps: 0 })).toBe('totalSteps');
    expect(codeOf({ kind: 'constant', warmupSteps: -1 })).toBe('warmupSteps');
    expect(codeOf({ kind: 'constant', warmupSteps: 1.5 })).toBe('warmupSteps');
    expect(codeOf({ kind: 'cosine', totalSteps: 3, numCycles: 0 })).toBe('numCycles');
    expect(codeOf({ kind: 'linear' } as unknown as LrSchedule)).toBe('kind');
    expect(codeOf({ kind: 'cosine', warmupSteps: 2, totalSteps: 10 })).toBeUndefined();
  });
});

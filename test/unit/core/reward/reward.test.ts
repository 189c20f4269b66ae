import { describe, expect, it } from 'vitest';
import { seededRandom } from '../../../../src/core/random.ts';
import { accuracyLambda, CODE_REWARD, computeReward, costWeightFor, PAPER_REWARD } from '../../../../src/core/reward/reward.ts';

describe('computeReward', () => {
  it("paper's scheme: 0 format error, 0.5 parsed but wrong, 1 correct", () => {
    expect(computeReward({ parsed: false, correct: false })).toEqual({ value: 0, correct: false, format: false });
    expect(computeReward({ parsed: true, correct: false })).toEqual({ value: 0.5, correct: false, format: true });
    expect(computeReward({ parsed: true, correct: true })).toEqual({ value: 1, correct: true, format: true });
    expect(computeReward({ parsed: true, correct: true }, PAPER_REWARD).value).toBe(1);
  });

  it('a format error is never correct, even if the grader said so', () => {
    expect(computeReward({ parsed: false, correct: true })).toEqual({ value: 0, correct: false, format: false });
  });

  it("the code's scheme and custom schemes", () => {
    expect([false, true].map((correct) => computeReward({ parsed: true, correct }, CODE_REWARD).value)).toEqual([0.5, 1.5]);
    expect(computeReward({ parsed: false, correct: false }, { formatError: -1, wrong: 0, correct: 1 }).value).toBe(-1);
  });

  it('subtracts a weighted cost when the scheme has one', () => {
    const scheme = { ...PAPER_REWARD, costWeight: 10 };
    expect(computeReward({ parsed: true, correct: true, costUsd: 0.02 }, scheme).value).toBeCloseTo(0.8, 12);
    expect(computeReward({ parsed: true, correct: true, costUsd: null }, scheme).value).toBe(1);
    expect(computeReward({ parsed: true, correct: true, costUsd: 0.02 }).value).toBe(1);
  });

  it('a cost weight ranks parsed plans as correct - accuracyLambda x dollars does, scaled by correct - wrong', () => {
    const random = seededRandom(7);
    for (const base of [PAPER_REWARD, CODE_REWARD]) {
      const costWeight = 1 + 40 * random();
      const scheme = { ...base, costWeight };
      const lambda = accuracyLambda(costWeight, base);
      expect(costWeightFor(lambda, base)).toBeCloseTo(costWeight, 12);
      for (let i = 0; i < 50; i++) {
        const [a, b] = [0, 1].map(() => ({ parsed: true, correct: random() < 0.5, costUsd: 0.01 * random() }));
        const rewardGap = computeReward(a, scheme).value - computeReward(b, scheme).value;
        const accuracyGap = Number(a.correct) - Number(b.correct) - lambda * (a.costUsd - b.costUsd);
        expect(rewardGap).toBeCloseTo((base.correct - base.wrong) * accuracyGap, 12);
      }
    }
  });

  it('keeps infrastructure failures apart: flagged, value 0, whatever else happened', () => {
    expect(computeReward({ parsed: true, correct: true, infraError: true }, CODE_REWARD)).toEqual({
      value: 0,
      correct: false,
      format: true,
      infraError: true,
    });
  });

  it('carries details through', () => {
    expect(computeReward({ parsed: true, correct: false, details: { extracted: '3', gold: '4' } }).details).toEqual({ extracted: '3', gold: '4' });
  });
});

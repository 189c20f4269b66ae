import { expect, it } from 'vitest';
import { rewardNote } from '../../../../src/core/episodes/index.ts';
import { CODE_REWARD, computeReward } from '../../../../src/core/reward/index.ts';

it('explains the format credit a wrong answer earns, and nothing else', () => {
  expect(rewardNote(computeReward({ parsed: true, correct: false }))).toBe(
    "Reward 0.5 although the answer is wrong: the Conductor's plan was well-formed, and that earns part of the reward (format credit).",
  );
  expect(rewardNote(computeReward({ parsed: true, correct: false }, { ...CODE_REWARD, wrong: 0.25 }))).toMatch(/^Reward 0\.25 although/);
  expect(rewardNote(computeReward({ parsed: true, correct: true }))).toBeUndefined();
  expect(rewardNote(computeReward({ parsed: false, correct: false }))).toBeUndefined();
  expect(rewardNote(computeReward({ parsed: true, correct: false, infraError: true }))).toBeUndefined();
});

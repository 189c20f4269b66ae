import type { Reward } from '../reward/index.ts';

/** One line where a reward would surprise whoever reads it: a wrong answer that still earns the format credit. */
export function rewardNote(reward: Reward): string | undefined {
  if (reward.infraError || reward.correct || !reward.format || reward.value <= 0) return undefined;
  return `Reward ${reward.value} although the answer is wrong: the Conductor's plan was well-formed, and that earns part of the reward (format credit).`;
}

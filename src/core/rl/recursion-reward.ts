/**
 * The reward of a rollout with recursion, as the paper trains it (docs/method.md, "Extensions"): the first
 * round's reward r0 is mixed with the final round's r1, r = (1 - d) r0 + d r1 (d = 0.25 in the paper,
 * 0.2 in its code), and GRPO trains the first round's completion on r. The first round's plans are what
 * a group compares (they share one prompt); each later round answers a prompt of its own (its first
 * round's result), so there is no group to compare it in, and it is kept in the episode, not trained.
 * The cost term counts the dollars of every round, so r still charges the whole run's calls.
 * Test: test/unit/core/rl/rollout.test.ts.
 */
import type { Episode } from '../episodes/index.ts';
import { computeReward, gradeTask, PAPER_REWARD, type CodeRunner, type RewardScheme } from '../reward/index.ts';
import type { Task } from '../task.ts';

/** The paper's d. */
export const PAPER_RECURSION_MIX = 0.25;

/**
 * The episode with reward.value = (1 - mix) r0 + mix r1 where a later round ran after a first round that
 * parsed and finished; r0 and r1 stay in reward.details. Other episodes come back as they are.
 */
export async function mixRecursionReward(
  episode: Episode,
  task: Task,
  options: { mix: number; rewardScheme?: Readonly<RewardScheme>; codeRunner?: CodeRunner },
): Promise<Episode> {
  const reward = episode.reward;
  if (!reward || reward.infraError || episode.rounds.length === 0 || !episode.workflow) return episode;
  // What grading would have read had the run stopped after round 0: its last non-empty response.
  const answer = [...episode.steps].reverse().find((s) => !s.error && s.output.trim() !== '')?.output ?? '';
  const grade = await gradeTask(answer, task, options.codeRunner ? { codeRunner: options.codeRunner } : {});
  const first = computeReward(
    { parsed: true, correct: grade.correct, infraError: false, costUsd: episode.totals.costUsd },
    options.rewardScheme ?? PAPER_REWARD,
  );
  const value = (1 - options.mix) * first.value + options.mix * reward.value;
  return {
    ...episode,
    reward: { ...reward, value, details: { ...reward.details, firstRoundValue: first.value, finalValue: reward.value, recursionMix: options.mix } },
  };
}

/**
 * GRPO's advantages: each completion's reward against its group's mean, scaled by a standard deviation.
 * Matched to TRL's GRPOTrainer._generate_and_score_completions at TRL 1.10.0.dev0 (main, July 2026),
 * multi_objective_aggregation 'sum_then_normalize' (its default, and the only one with one reward):
 *   A = r - mean(group)                          always the group's mean, in every mode
 *   'group': A / (std(group) + 1e-4)             GRPO's own scaling (TRL's default)
 *   'batch': A / (std(all rewards) + 1e-4)       one std over the whole batch, around the batch's
 *                                                mean (PPO Lite), while the baseline stays per group
 *   'none':  A                                   Dr. GRPO: no scaling
 * std is the sample std (n - 1, as torch.std and TRL's nanstd). A group of one has A = 0 whatever the
 * std (TRL's NaN std becomes 0 through nan_to_num), so std of fewer than two values is taken as 0 here.
 */
import { BatonError } from '../errors/index.ts';

/** TRL's scale_rewards: divide by the group's std, the whole batch's, or not at all. */
export const REWARD_SCALINGS = ['group', 'batch', 'none'] as const;
export type RewardScaling = (typeof REWARD_SCALINGS)[number];

const STD_EPSILON = 1e-4;

function mean(values: readonly number[]): number {
  return values.reduce((sum, v) => sum + v, 0) / values.length;
}

/** Sample standard deviation (Bessel's n - 1); 0 for fewer than two values. */
export function sampleStd(values: readonly number[]): number {
  if (values.length < 2) return 0;
  const m = mean(values);
  return Math.sqrt(values.reduce((sum, v) => sum + (v - m) ** 2, 0) / (values.length - 1));
}

/** rewards[g][i]: completion i of group g. Returns advantages in the same shape. */
export function groupAdvantages(rewards: readonly (readonly number[])[], scaling: RewardScaling = 'group'): number[][] {
  rewards.forEach((group, g) => {
    if (group.length === 0) throw new BatonError({ code: 'data/invalid', message: `Group ${g} has no rewards: every group needs at least one completion.` });
    group.forEach((r, i) => {
      if (!Number.isFinite(r)) throw new BatonError({ code: 'data/invalid', message: `Group ${g}, completion ${i}: the reward ${r} is not a finite number.` });
    });
  });
  const batchStd = scaling === 'batch' ? sampleStd(rewards.flat()) : 0;
  return rewards.map((group) => {
    const baseline = mean(group);
    const scale = scaling === 'none' ? 1 : (scaling === 'batch' ? batchStd : sampleStd(group)) + STD_EPSILON;
    return group.map((r) => (r - baseline) / scale);
  });
}

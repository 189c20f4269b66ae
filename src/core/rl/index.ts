/** Reinforcement learning (GRPO) over a Policy. */
export type { Completion, GroupOptions, LogprobOptions, Policy, PolicyPrompt, PolicySampling } from './policy.ts';
export { groupAdvantages, sampleStd } from './advantages.ts';
export type { RewardScaling } from './advantages.ts';

/** Reinforcement learning (GRPO) over a Policy. */
export type { Completion, GroupOptions, LogprobOptions, Policy, PolicyPrompt, PolicySampling } from './policy.ts';

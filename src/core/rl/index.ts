/** Reinforcement learning (GRPO) over a Policy. */
export type { Completion, GroupOptions, LogprobOptions, Policy, PolicyPrompt, PolicySampling } from './policy.ts';
export { groupAdvantages, sampleStd } from './advantages.ts';
export type { RewardScaling } from './advantages.ts';
export { grpoLoss, grpoTokenWeights } from './grpo-loss.ts';
export type { GrpoClipRatio, GrpoLossOptions, GrpoLossResult, GrpoLossSequence, GrpoLossType } from './grpo-loss.ts';
export { flattenGrpoBatch, groupRewards, parseGrpoBatch, validateGrpoBatch } from './grpo-batch.ts';
export type { GrpoBatch, GrpoBatchCompletion, GrpoBatchGroup, GrpoSequence } from './grpo-batch.ts';
export type { LrSchedule, OptimizerOptions, TrainablePolicy, TrainingState, TrainStepOptions, TrainStepResult } from './trainable-policy.ts';
export type { DifferentiablePolicy, GradientStep, ScoredSequence, SequenceScores } from './differentiable-policy.ts';
export { grpoStep } from './grpo-step.ts';
export { trainablePolicy, type StatefulTrainer } from './trainable.ts';
export { askPrompt, completionMask, rolloutGroup, type ConductorPromptFor, type ConstraintForPool, type RolloutGroup, type RolloutOptions, type RolloutSample } from './rollout.ts';
export { scoreCompletion, trainingReward, type RewardComponents, type ScoredCompletion, type ScoreOptions } from './score-completion.ts';
export { runGrpo, stepRandom, type CheckpointStore, type GrpoCheckpoint, type GrpoConfig, type GrpoDeps, type GrpoRunResult } from './grpo-loop.ts';
export { dollarsOf, stepMetrics, type GrpoStepMetrics, type HeldOut } from './step-metrics.ts';
export { compactPrompt } from './compact-prompt.ts';
export { DEMO_CONDUCTOR_FORMAT } from './demo-conductor.ts';

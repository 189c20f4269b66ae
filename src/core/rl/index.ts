/** Reinforcement learning (GRPO) over a Policy. */
export type { SampledCompletion, GroupOptions, LogprobOptions, Policy, PolicyPrompt } from './policy.ts';
export { groupAdvantages, REWARD_SCALINGS, sampleStd } from './advantages.ts';
export type { RewardScaling } from './advantages.ts';
export { GRPO_LOSS_TYPES, grpoLoss, grpoTokenWeights } from './grpo-loss.ts';
export type { GrpoClipRatio, GrpoLossOptions, GrpoLossSequence, GrpoLossType } from './grpo-loss.ts';
export { flattenGrpoBatch, groupRewards, parseGrpoBatch, validateGrpoBatch } from './grpo-batch.ts';
export type { GrpoBatch, GrpoBatchGroup, GrpoSequence } from './grpo-batch.ts';
export type {
  LoraTrainingState,
  LrSchedule,
  OptimizerOptions,
  TrainablePolicy,
  TrainingState,
  TrainStepOptions,
  TrainStepResult,
  WeightsTrainingState,
} from './trainable-policy.ts';
export { isWeightsState, loraState } from './trainable-policy.ts';
export type { DifferentiablePolicy, GradientStep, ScoredSequence, SequenceScores } from './differentiable-policy.ts';
export { grpoStep, microBatches } from './grpo-step.ts';
export { languageModelLoss, languageModelStep, type LanguageModelStepResult } from './language-model-step.ts';
export { trainablePolicy, type StatefulTrainer } from './trainable.ts';
export { askPrompt, completionMask, rolloutGroup, type ConductorPromptFor, type ConstraintForPool, type RolloutGroup, type RolloutOptions } from './rollout.ts';
export { scoreCompletion, type RewardComponents } from './score-completion.ts';
export { runGrpo, type GrpoConfig, type GrpoDeps, type GrpoRunResult } from './grpo-loop.ts';
export type { CheckpointStore, GrpoCheckpoint } from './run-checkpoints.ts';
export { dollarsOf, stepMetrics, type GrpoStepMetrics, type HeldOut } from './step-metrics.ts';
export { compactPrompt, compactPromptWithin } from './compact-prompt.ts';
export { recordedSourcesOf, trainBundleFiles, type TrainBundleInput } from './train-bundle.ts';
export { groupsFromEpisodes, groupsOfEpisodes, type EpisodeGroup, type EpisodeTokenizer } from './episode-groups.ts';
export { choiceEpisodes, splitPicksByTime, userChoices, type PickGroup, type UserChoices } from './user-choices.ts';
export { offlineStepGroups, runOfflineGrpo, type OfflineGrpoConfig, type OfflineGrpoDeps, type OfflineStepMetrics } from './offline-grpo.ts';
export {
  describeTrainedFormat,
  parseTrainedFormat,
  readTrainedFormat,
  TRAINED_FORMAT_FILE,
  trainedFormatJson,
  trainedPrompt,
  trainedWorkflowFormat,
  type TrainedFormat,
} from './trained-format.ts';
export * from './training/index.ts';

/** One training recipe for both hosts: the settings, the configs they give, and the run's setup behind the host's ports. */
export { grpoConfigOf, heldOutSample, offlineGrpoConfigOf, TRAINING_DEFAULTS, trainedFormatOf, type TrainingRecipe } from './recipe.ts';
export {
  estimateTraining,
  openOfflineTrainingSession,
  openTrainingSession,
  runOfflineTraining,
  runTraining,
  type OfflineTrainingSession,
  type TrainingEstimate,
  type TrainingSession,
} from './training-session.ts';
export type {
  EngineTrainer,
  EngineTypes,
  LoadedConductor,
  MemoryShape,
  NewAdapter,
  OfflineHost,
  PromptPolicy,
  SamplingHost,
  TrainerOptions,
  TrainingEngine,
  TrainingLimits,
} from './training-host.ts';

/** One training recipe for both hosts: the settings, the configs they give, and the run's setup behind the host's ports. */
export { grpoConfigOf, grpoUpdateOf, heldOutSample, offlineGrpoConfigOf, TRAINING_DEFAULTS, trainedFormatOf, type TrainingRecipe } from './recipe.ts';
export {
  estimateTraining,
  openOfflineTrainingSession,
  openTrainingSession,
  runOfflineTraining,
  runTraining,
  type OfflineTrainingSession,
  type OfflineTrainingSinks,
  type TrainingEstimate,
  type TrainingSession,
  type TrainingSinks,
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
  TrainingHost,
  TrainingLimits,
} from './training-host.ts';

/**
 * The trainer web worker's service: TrainerService runs the Train page's GRPO run on Baton's engine.
 * workers/trainer.worker.ts exposes it; src/client/trainer.ts wraps it for the page with the plain-data
 * contracts of api.ts.
 */
export { TrainerService, browserTrainerDeps, type TrainerDeps } from './trainer-service.ts';
export {
  DEFAULT_TRAINING,
  MAX_TRAINING_RECURSION,
  TRAINING_LIMITS,
  type ChoiceTrainingProgress,
  type LatestGroup,
  type SampledPlan,
  type TrainerStatus,
  type TrainingConfig,
  type TrainingProgress,
} from './api.ts';
export { checkTrainingConfig } from './check-training-config.ts';
export { TRAINING_DB, TrainingDb, type StoredChoices, type StoredRun, type TrainingRunStatus } from './training-db.ts';
export { modelChoiceOf, tabTraining, type PrepareTraining, type TrainingEstimate } from './tab-training.ts';
export { recipeOf } from './training-recipe.ts';

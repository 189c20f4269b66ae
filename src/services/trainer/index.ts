/**
 * The trainer web worker's service: TrainerService runs the Train page's GRPO run on Baton's engine.
 * workers/trainer.worker.ts exposes it; src/client/trainer.ts wraps it for the page, and re-exports the
 * plain-data contracts below that cross over.
 */
export { TrainerService, browserTrainerDeps, type LatestGroup, type SampledPlan, type TrainerDeps, type TrainerStatus, type TrainingProgress } from './trainer-service.ts';
export { DEFAULT_TRAINING, TRAINING_LIMITS, checkTrainingConfig, type TrainingConfig } from './training-config.ts';
export { TRAINING_DB, TrainingDb, type StoredRun, type TrainingRunStatus } from './training-db.ts';
export { modelChoiceOf, tabTraining, type PrepareTraining, type TrainingEstimate } from './tab-training.ts';
export { recipeOf } from './training-recipe.ts';

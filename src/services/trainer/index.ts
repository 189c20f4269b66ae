/**
 * The trainer web worker's service: TrainerService runs the Train page's GRPO run on Baton's engine.
 * workers/trainer.worker.ts exposes it; src/client/trainer.ts wraps it for the page, and re-exports the
 * plain-data contracts below that cross over.
 */
export { TrainerService, browserTrainerDeps, grpoConfigOf, type LatestGroup, type SampledPlan, type TrainerDeps, type TrainerStatus, type TrainingProgress } from './trainer-service.ts';
export { DEFAULT_TRAINING, TRAINING_LIMITS, checkTrainingConfig, type TrainingConfig } from './training-config.ts';
export { TRAINING_DB, TrainingDb, type RunStatus, type StoredRun } from './training-db.ts';
export { LORA_TARGETS, engineTraining, estimateFor, heldOutSample, modelChoiceOf, type PrepareTraining, type TrainingEstimate, type TrainingSession } from './engine-training.ts';

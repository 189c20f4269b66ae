/**
 * What the page (src/app) calls: typed handles on the web workers, the key store, and the plain-data
 * contracts of the services behind them. The app reaches web workers only through this folder.
 */
export { askInService, engineInService, runtimesInService, stopAsk, watchConductorLoads, webllmInService } from './conductor.ts';
export { trainerInService, watchTraining } from './trainer.ts';
export type { LatestGroup, SampledPlan, TrainerStatus, TrainingConfig, TrainingEstimate, TrainingProgress } from '../services/trainer/index.ts';
// By path: the trainer service's index holds the whole training stack, which the page's first paint must not carry.
export { DEFAULT_TRAINING, MAX_TRAINING_RECURSION, TRAINING_LIMITS } from '../services/trainer/training-config.ts';
export { evaluatorInService, lazyCodeRunner, watchEvaluation } from './evaluator.ts';
export type { DataPreview, EvalDataSource, EvalSettings, EvaluationProgress, EvaluationStatus, EvaluatorStatus, StoredEvaluation, UserFileFormat } from '../services/evaluator/index.ts';
// By path: the evaluator service's index holds core/bench's runner and loaders, which the page's first paint must not carry.
export { BUILT_IN_DATASETS, DEFAULT_EVAL, EVAL_LIMITS, dataLabel, formatOfFile } from '../services/evaluator/eval-settings.ts';
export { checkPoolWorker, type PoolWorkerCheck } from './check-pool-worker.ts';
export { probeWebGpu, type WebGpuProbe } from './webgpu-probe.ts';
export {
  engineWorkerFields,
  slotsNeeded,
  type AskOptions,
  type AskRequest,
  type CachedModelFiles,
  type ConductorLoadStatus,
  type EngineSupport,
  type LoadedEngineInfo,
  type LoadProgress,
  type WebllmModelChoice,
} from '../services/conductor/index.ts';
export {
  DEMO_ENGINE_MODEL,
  ENGINE_WEIGHTS,
  describeConductor,
  describeSource,
  hubRepoId,
  type ConductorChoice,
  type EngineAdapterSource,
  type EngineFilesSource,
  type EngineModelChoice,
  type EngineModelSource,
  type EngineWeights,
} from '../core/bench/conductor/index.ts';

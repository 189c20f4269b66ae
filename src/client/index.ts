/**
 * What the page (src/app) calls: typed handles on the web workers, the key store, and the plain-data
 * contracts of the services behind them. The app reaches web workers only through this folder.
 */
export {
  askInService,
  compareInService,
  engineInService,
  fuseInService,
  rerunEditedInService,
  runtimesInService,
  stopAsk,
  watchConductorLoads,
  webllmInService,
} from './conductor.ts';
export { trainerInService, trainOnChoices, watchTraining } from './trainer.ts';
export {
  DEFAULT_TRAINING,
  MAX_TRAINING_RECURSION,
  RECORDED_PRESETS,
  TRAINING_LIMITS,
  type ChoiceTrainingProgress,
  type LatestGroup,
  type PickCheck,
  type TrainerStatus,
  type TrainingConfig,
  type TrainingEstimate,
  type TrainingProgress,
} from '../services/trainer/api.ts';
export { evaluatorInService, lazyCodeRunner, watchEvaluation } from './evaluator.ts';
export {
  BUILT_IN_DATASETS,
  DEFAULT_EVAL,
  EVAL_LIMITS,
  dataLabel,
  formatOfFile,
  type DataPreview,
  type EvalDataSource,
  type EvalSettings,
  type EvaluationProgress,
  type EvaluationStatus,
  type StoredEvaluation,
  type UserFileFormat,
} from '../services/evaluator/api.ts';
export { checkPoolWorker, type PoolWorkerCheck } from './check-pool-worker.ts';
export { probeWebGpu, type WebGpuProbe } from './webgpu-probe.ts';
export {
  COMPARE_RUNS,
  slotsNeeded,
  type AskOptions,
  type AskRequest,
  type CompareRequest,
  type EditedRunRequest,
  type FuseRequest,
} from '../services/conductor/api.ts';
export {
  engineWorkerFields,
  type CachedModelFiles,
  type ConductorLoadStatus,
  type EngineSupport,
  type LoadedEngineInfo,
  type LoadProgress,
  type WebllmModelChoice,
} from '../services/runtimes/api.ts';
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
} from '../core/conductor/index.ts';

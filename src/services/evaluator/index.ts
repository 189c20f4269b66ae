/**
 * The evaluator web worker's service: EvaluatorService runs the Evaluate page's evaluations (core/bench,
 * as `baton eval`). workers/evaluator.worker.ts exposes it; src/client/evaluator.ts wraps it for the page
 * with the plain-data contracts of api.ts.
 */
export { EvaluatorService, type EvaluatorDeps } from './evaluator-service.ts';
export {
  BUILT_IN_DATASETS,
  DEFAULT_EVAL,
  EVAL_LIMITS,
  dataLabel,
  formatOfFile,
  type BuiltInDataset,
  type DataPreview,
  type EvalDataSource,
  type EvalSettings,
  type EvaluationProgress,
  type EvaluatorStatus,
  type UserFileFormat,
  type UserRows,
} from './api.ts';
export { checkEvalSettings } from './check-eval-settings.ts';
export { EVALUATION_DB, EvaluationDb, type EvaluationStatus, type StoredEvaluation } from './evaluation-db.ts';
export { evalDataFiles, loadItems } from './eval-data.ts';
export { browserEvaluatorDeps } from './browser-deps.ts';

/** Evaluation: methods over items and repeats, stored as episodes, reported with errors, cost and a plot. */
export { METHOD_SPEC_HELP, parseMethodSpec, type MethodSpec } from './method-spec.ts';
export type { EvalMethod, MethodRun } from './eval-method.ts';
export { buildMethods, type BuiltMethods, type MethodContext } from './methods/build-methods.ts';
export { memoryCallLog, recordingPool, type CallLog, type LoggedCall } from './call-log.ts';
export { evalTags, isFinished, runKeyOf, type RunKey } from './run-key.ts';
export { runEvaluation, type EvalProgress, type EvaluationInput, type EvaluationResult } from './run-evaluation.ts';
export { itemAccuracy, mean, percentile } from './statistics.ts';
export { buildReport, paretoFront, type EvalReport, type MethodReport } from './report.ts';
export { compareReports, type ComparedRow } from './compare-reports.ts';
export { reportMarkdown } from './report-markdown.ts';
export { reportPlotSvg } from './plot-svg.ts';
export { hindsightBaselines, routingWorkflows, type HindsightBaselines, type ScoredWorkflow } from './hindsight.ts';
export {
  lambdaForShare,
  perGroupRouting,
  randomRoutingAccuracy,
  routingOutcomes,
  routingPoint,
  singleWorkerPoints,
  type Outcome,
  type RoutingOutcomes,
  type RoutingPoint,
} from './cost-routing.ts';

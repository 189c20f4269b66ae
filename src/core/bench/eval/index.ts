/** Evaluation: methods over items and repeats, stored as episodes, reported with errors, cost and a plot. */
export { parseMethodSpec } from './method-spec.ts';
export type { EvalMethod } from './eval-method.ts';
export { buildMethods, fromSingles, type BuiltMethods } from './methods/build-methods.ts';
export { memoryCallLog, recordingPool, type CallLog, type LoggedCall } from './call-log.ts';
export { evalTags, isFinished, runKeyOf, type RunKey } from './run-key.ts';
export { runEvaluation, type EvalProgress, type EvaluationInput } from './run-evaluation.ts';
export { itemAccuracy, mean, percentile } from './statistics.ts';
export { buildReport, hindsightMethod, hullPlace, paretoFront, type EvalReport, type MethodReport } from './report.ts';
export { costQualityHull, hullAccuracyAt, sideOfHull, type CostQualityPoint } from './cost-quality-hull.ts';
export { compareReports } from './compare-reports.ts';
export { reportMarkdown } from './report-markdown.ts';
export { reportPlotSvg } from './plot-svg.ts';
export { hindsightBaselines, routingWorkflows, type HindsightBaselines } from './hindsight.ts';
export {
  lambdaForShare,
  perGroupRouting,
  randomRoutingAccuracy,
  routingOutcomes,
  routingPoint,
  singleWorkerPoints,
  type RoutingOutcomes,
  type RoutingPoint,
} from './cost-routing.ts';

export { isRecursionRound, type Conductor, type ConductorOutput, type ConductorRequest } from './conductor.ts';
export type { RunEvent, RunEventListener, RunEventType } from './events.ts';
export { visibleSteps } from './access.ts';
export { BudgetLedger, worstCaseCostUsd } from './budget.ts';
export { CallSlots } from './call-slots.ts';
export {
  DEFAULT_PROVIDER_CONCURRENCY,
  limitPerProvider,
  parseProviderConcurrency,
  PROVIDER_NAMES,
  providerConcurrencyText,
  type ProviderConcurrency,
} from './provider-slots.ts';
export { ResponseCache } from './response-cache.ts';
export {
  DEFAULT_STEP_MAX_TOKENS,
  DEFAULT_STEP_TEMPERATURE,
  executeWorkflow,
  sharedSteps,
  type ExecuteContext,
  type StepOptions,
  type WorkflowResult,
} from './execute-workflow.ts';
export { buildWorkerMessages, WORKER_PREAMBLE, WORKER_PREFILL, type SharedStep, type WorkerMessageInput } from './worker-messages.ts';
export { INTERRUPTED_ERROR, runEpisode, type RunEpisodeInput, type RunOptions } from './run-episode.ts';
export { createFixedConductor } from './fixed-conductor.ts';
export { createWorkerConductor } from './worker-conductor.ts';

export { isRecursionRound, type Conductor, type ConductorOutput, type ConductorRequest } from './conductor.ts';
export type { RunEvent, RunEventListener } from './events.ts';
export { visibleSteps } from './access.ts';
export { BudgetLedger, worstCaseCostUsd } from './budget.ts';
export { CallSlots } from './call-slots.ts';
export {
  DEFAULT_PROVIDER_CONCURRENCY,
  limitPerProvider,
  parseProviderConcurrency,
  providerConcurrencyText,
  type ProviderConcurrency,
} from './provider-slots.ts';
export { ResponseCache } from './response-cache.ts';
export { executeWorkflow, sharedSteps, type StepOptions, type WorkflowResult } from './execute-workflow.ts';
export { buildWorkerMessages, WORKER_PREAMBLE, WORKER_PREFILL, type SharedStep } from './worker-messages.ts';
export { INTERRUPTED_ERROR, runEpisode, type RunOptions } from './run-episode.ts';
export { createFixedConductor } from './fixed-conductor.ts';
export { createWorkerConductor } from './worker-conductor.ts';
export { localDay, NO_SPENDING_LIMITS, SpendingGuard, type SpendingLimits, type SpendingRow, type SpendingSnapshot, type SpendingStore } from './spending.ts';
export { IdbSpendingStore, SPENDING_CHANNEL, spendingStore } from './spending-db.ts';
export { typicalRunUsd, worstCaseRunUsd } from './run-estimate.ts';
export { distinctPlans, SAMPLING_AGAIN, type DistinctConductor } from './distinct-plans.ts';

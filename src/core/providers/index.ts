export type {
  CallRequest,
  CallResult,
  ChatMessage,
  Price,
  ProviderName,
  SimulatedBehaviour,
  Usage,
  WorkerModel,
  WorkerSpec,
} from './types.ts';
export { createWorkerModel, type WorkerContext } from './create-worker.ts';
export { defaultKeyName, resolveApiKey, type ResolvedKey } from './keys.ts';
export { DEFAULT_RETRY_POLICY, type RetryPolicy } from './shared/retry.ts';
export { DEFAULT_CALL_TIMEOUT_MS } from './shared/call-deadline.ts';
export type { NetworkWorkerContext } from './shared/sdk-worker.ts';
export type { ReplayTable } from './replay/index.ts';

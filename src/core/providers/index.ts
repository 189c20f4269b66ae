export type { CallRequest, CallResult, ChatMessage, Price, ProviderName, SimulatedBehaviour, Usage, WorkerModel, WorkerSpec } from './types.ts';
/** The adapters (and the AI SDK behind them) load on first use: `const { createWorkerModel } = await loadProviders()`. */
export { loadProviders } from './load-providers.ts';
export { DEMO_POOL } from './simulated/demo-pool.ts';
export { workerName } from './worker-name.ts';
export { defaultKeyName, resolveApiKey } from './keys.ts';
export { DEFAULT_RETRY_POLICY, sleep, type RetryPolicy } from './common/retry.ts';
export { DEFAULT_CALL_TIMEOUT_MS } from './common/call-deadline.ts';
export { blockedByPage, explainBlockedCall, workerUrls } from './common/blocked-by-page.ts';
export type { NetworkWorkerContext } from './common/sdk-worker.ts';
export type { ReplayTable } from './replay/index.ts';
export type { LocalChatRequest, LocalGeneration, LocalModels } from './local/index.ts';

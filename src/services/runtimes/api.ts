/**
 * What the page sees of the model runtimes (through src/client): the handles' types, which it calls across the
 * thread boundary, the plain data they return (support, loads and their progress, cached files, web-llm's
 * choices), and how a Workers page engine worker names a Conductor's engine model. Nothing here loads a runtime.
 */
export type { ModelRuntimes, ConductorLoadStatus, RuntimeName } from './model-runtimes.ts';
export type { EngineHost, CachedModelFiles, EngineLoadRequest, EngineSupport, LoadedEngineInfo } from './engine-host.ts';
export type { LoadProgress } from './download-meter.ts';
export type { WebllmModelChoice, WebllmRuntime } from './webllm/index.ts';
export { engineWorkerFields } from './engine-worker-choice.ts';

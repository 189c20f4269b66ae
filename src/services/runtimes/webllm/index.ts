/**
 * web-llm as a Conductor runtime: which of its models fit this GPU, how Baton configures and loads
 * one, its progress and errors in Baton's terms, a Conductor on its chat API, and its model cache.
 * web-llm itself is only ever imported on demand (types aside).
 */
export { CONDUCTOR_MODELS, type ConductorModelFamily } from './conductor-models.ts';
export { webllmCapsOf, webllmModelChoices, type WebllmCaps, type WebllmModelChoice, type WebllmPrecision } from './model-choices.ts';
export { buildWebllmEngineConfig, webllmAppConfig, type WebllmCacheBackend, type WebllmEngineOptions, type WebllmEngineSetup } from './engine-config.ts';
export {
  createWebllmProgressMapper,
  parseWebllmProgressText,
  type ParsedWebllmProgress,
  type WebllmLoadPhase,
  type WebllmLoadProgress,
} from './load-progress.ts';
export { loadWebllmEngine } from './load-engine.ts';
export { WebllmHost, type WebllmLoadedEngine, type WebllmLoader } from './webllm-host.ts';
export { createWebllmConductor, type WebllmChatEngine } from './webllm-conductor.ts';
export { PrefillEchoCutter, prefillAsInstruction, type PrefillAsInstruction } from './prefill.ts';
export { toWebllmError } from './webllm-error.ts';
export { freeWebllmCache, webllmCacheStatus, type WebllmCacheApi, type WebllmCacheOptions, type WebllmCacheStatus } from './webllm-cache.ts';
export { WebllmRuntime, type WebllmReady, type WebllmRuntimeOptions } from './webllm-runtime.ts';

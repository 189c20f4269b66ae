/**
 * The Conductor web worker's service: AskService runs questions and hosts the Conductor runtimes
 * (Baton's engine, web-llm). workers/conductor.worker.ts exposes it; src/client wraps it for the page,
 * and re-exports the plain-data contracts below (choices, requests, load progress) that cross over.
 */
export { AskService } from './ask-service.ts';
export { slotsNeeded, type AskOptions, type AskRequest } from './ask-request.ts';
// Other services name the engine choices as the runtimes take them.
export { describeSource, type EngineModelChoice, type EngineModelSource } from '../../core/bench/conductor/index.ts';
export { ConductorRuntimes, type ConductorLoadStatus, type ConductorRuntime } from './conductor-runtimes.ts';
export { tabConductorHost, type TabHostOptions } from './tab-conductor-host.ts';
export type { LoadProgress } from './download-meter.ts';
export { EngineHost, type CachedModelFiles, type EngineSupport, type LoadedEngine, type LoadedEngineInfo } from './engine-host.ts';
export { readTrainedAdapter, saveTrainedAdapter, trainedAdapterFiles, type TrainedAdapter } from './trained-adapters.ts';
export { KeyedDb, type KeyedTransaction } from './keyed-db.ts';
export { buildWorker } from './run-ask.ts';
export type { WebllmModelChoice, WebllmRuntime } from './webllm/index.ts';
export { demoModelUrl } from './engine-files.ts';
export { engineChat, type EngineChatModel } from './engine-chat.ts';
export { GpuQueue } from './gpu-queue.ts';
export { engineWorkerChoice, engineWorkerFields } from './engine-worker-choice.ts';

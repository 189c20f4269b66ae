/**
 * The tab's model runtimes, for the web workers that run models (Ask's, the trainer's, the evaluator's):
 * Baton's engine and web-llm held together with their loads' progress (ModelRuntimes), the files and
 * download cache of engine models, adapters trained in this browser, createConductor's host on them, and
 * the pool's workers, local ones running on the same runtimes. api.ts is what of this the page sees.
 */
export { ModelRuntimes, type ConductorLoadStatus, type RuntimeName } from './model-runtimes.ts';
export { EngineHost, type CachedModelFiles, type EngineLoadRequest, type EngineSupport, type LoadedEngine, type LoadedEngineInfo } from './engine-host.ts';
export { demoModelUrl } from './engine-files.ts';
export type { LoadProgress } from './download-meter.ts';
export { WebllmRuntime, type WebllmModelChoice } from './webllm/index.ts';
export { tabConductorHost, type TabHostOptions } from './tab-conductor-host.ts';
export { readTrainedAdapter, saveTrainedAdapter, trainedAdapterFiles, type TrainedAdapter } from './trained-adapters.ts';
export { engineWorkerChoice, engineWorkerFields } from './engine-worker-choice.ts';
export { TabLocalModels } from './tab-local-models.ts';
export { buildWorker } from './build-worker.ts';

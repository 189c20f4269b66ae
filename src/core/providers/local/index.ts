/** Pool workers on models that run on this machine (Baton's engine, web-llm), over a runtime the caller gives. */
export { createLocalWorker } from './local-chat-model.ts';
export type { LocalChatRequest, LocalGeneration, LocalModels } from './local-models.ts';

export { askInWorker, engineInWorker, runtimesInWorker, stopAsk, watchConductorLoads, webllmInWorker } from './ask-client.ts';
export { slotsNeeded } from './run-ask.ts';
export type { AskOptions, AskRequest } from './ask-request.ts';

/**
 * The Conductor web worker's service: AskService runs questions and holds the model runtimes
 * (services/runtimes) that model Conductors and local pool workers run on. workers/conductor.worker.ts
 * exposes it; src/client wraps it for the page with the plain-data contracts of api.ts.
 */
export { AskService } from './ask-service.ts';
export { COMPARE_RUNS, slotsNeeded, type AskOptions, type AskRequest, type CompareRequest, type EditedRunRequest, type FuseRequest } from './api.ts';

/** The page's handle on the Conductor worker: AskService, typed, across the thread boundary. */
import { proxy, wrap, type Remote } from 'comlink';
import type { Episode } from '../../core/episodes/index.ts';
import type { RunEvent } from '../../core/orchestra/index.ts';
import type { EngineHost } from '../conductors/engine-host.ts';
import '../error-transfer.ts';
import type { AskRequest } from './ask-request.ts';
import type { AskService } from './ask-service.ts';

let service: Remote<AskService> | undefined;

function remote(): Remote<AskService> {
  service ??= wrap<AskService>(new Worker(new URL('../../../workers/conductor.worker.ts', import.meta.url), { type: 'module', name: 'conductor' }));
  return service;
}

export function askInWorker(request: AskRequest, onEvent: (event: RunEvent) => void): Promise<Episode> {
  return remote().ask(request, proxy(onEvent));
}

export function stopAsk(): Promise<void> {
  return remote().stop();
}

/** The engine inside the Conductor worker (load, unload, cache); its callbacks must be wrapped in comlink's proxy(). */
export function engineInWorker(): Remote<EngineHost> {
  // comlink follows the property path at call time, so `.engine.load(...)` runs service.engine.load in
  // the worker; its typings only model that for proxy-marked values, hence the cast.
  return remote().engine as unknown as Remote<EngineHost>;
}

/** The page's handle on the Conductor web worker: AskService, typed, across the thread boundary. */
import { proxy, type Remote } from 'comlink';
import type { Episode } from '../core/episodes/index.ts';
import type { RunEvent } from '../core/orchestra/index.ts';
import type { CallRequest, CallResult, WorkerSpec } from '../core/providers/index.ts';
import '../core/errors/error-transfer.ts';
import type { AskRequest, AskService, CompareRequest, EditedRunRequest, FuseRequest } from '../services/conductor/api.ts';
import type { ConductorLoadStatus, EngineHost, ModelRuntimes, WebllmRuntime } from '../services/runtimes/api.ts';
import { serviceOnFirstUse } from './web-worker-under-policy.ts';
import conductorWorkerUrl from '../../workers/conductor.worker.ts?worker&url';

const remote = serviceOnFirstUse<AskService>(conductorWorkerUrl, 'conductor');

export function askInService(request: AskRequest, onEvent: (event: RunEvent) => void): Promise<Episode> {
  return remote().ask(request, proxy(onEvent));
}

export function compareInService(request: CompareRequest, onEvent: (run: number, event: RunEvent) => void): Promise<Episode[]> {
  return remote().compare(request, proxy(onEvent));
}

export function rerunEditedInService(request: EditedRunRequest, onEvent: (event: RunEvent) => void): Promise<Episode> {
  return remote().rerunEdited(request, proxy(onEvent));
}

export function fuseInService(request: FuseRequest, onEvent: (event: RunEvent) => void): Promise<Episode> {
  return remote().fuse(request, proxy(onEvent));
}

/** A local pool worker's test, run in the Conductor worker where such workers run. */
export function checkLocalWorkerInService(spec: WorkerSpec, call: Pick<CallRequest, 'messages' | 'maxTokens' | 'timeoutMs'>): Promise<CallResult> {
  return remote().checkLocalWorker(spec, call);
}

export function stopAsk(): Promise<void> {
  return remote().stop();
}

/**
 * The model runtimes inside the Conductor worker (engine and web-llm: load, cancel, unload, caches);
 * callbacks passed to them must be wrapped in comlink's proxy().
 */
export function runtimesInService(): Remote<ModelRuntimes> {
  // comlink follows the property path at call time, so `.runtimes.engine.cached()` runs in the worker;
  // its typings only model that for proxy-marked values, hence the cast.
  return remote().runtimes as unknown as Remote<ModelRuntimes>;
}

/** Baton's engine in the worker (support, what is loaded, unload, download cache). */
export function engineInService(): Remote<EngineHost> {
  return runtimesInService().engine as unknown as Remote<EngineHost>;
}

/** web-llm in the worker (the models this GPU runs, what is loaded, unload, cache). */
export function webllmInService(): Remote<WebllmRuntime> {
  return runtimesInService().webllm as unknown as Remote<WebllmRuntime>;
}

const watchers = new Set<(status: ConductorLoadStatus) => void>();
let watching = false;

/**
 * Calls `listener` with the worker's Conductor model loads as they go (a run's load included);
 * returns the function that stops it. One subscription to the worker serves every listener.
 */
export function watchConductorLoads(listener: (status: ConductorLoadStatus) => void): () => void {
  watchers.add(listener);
  if (!watching) {
    watching = true;
    runtimesInService()
      .watch(proxy((status: ConductorLoadStatus) => watchers.forEach((w) => w(status))))
      .catch(() => {
        watching = false; // the next listener subscribes again
      });
  }
  return () => watchers.delete(listener);
}

/**
 * The model runtimes a web worker holds, Baton's engine and web-llm: web-llm holds one model on the GPU, the
 * engine the Conductor's and the local pool workers' own. Every model load, whether a run or the Conductor page
 * asked for it, goes through here: its progress reaches every watcher (the Ask and Conductor pages show any load
 * in progress), and `cancel()` stops it through an AbortSignal down to fetch and web-llm's unload. A cancelled or
 * failed load changes no stored choice: the page saves a choice only once its model has loaded. A pool worker's
 * load is marked as such, and every generation on this worker's GPU waits its turn in `gpu`.
 */
import { BatonError, toBatonError } from '../../core/errors/index.ts';
import { WebllmRuntime, type WebllmReady } from './webllm/index.ts';
import { type EngineModelChoice, describeSource } from '../../core/conductor/index.ts';
import { throttledProgress, type LoadProgress } from './download-meter.ts';
import { EngineHost, type EngineLoadRequest, type LoadedEngine, type LoadedEngineInfo } from './engine-host.ts';
// By path: the engine's index would bring the whole engine into the worker's start; it loads with the first model.
import { GpuQueue } from '../../engine/runtime/gpu-queue.ts';
import { webllmLoadProgress } from './webllm-progress.ts';

export type RuntimeName = 'engine' | 'webllm';

/** The latest load in this worker, as watchers see it. */
export interface ConductorLoadStatus {
  runtime: RuntimeName;
  /** What is loading, in words. */
  model: string;
  /** Set when a local pool worker's model is loading, not the Conductor's. */
  worker?: true;
  state: 'loading' | 'ready' | 'cancelled' | 'failed';
  progress?: LoadProgress;
  error?: { code: string; message: string };
}

type Listener = (status: ConductorLoadStatus) => void;

export class ModelRuntimes {
  readonly engine: EngineHost;
  readonly webllm: WebllmRuntime;
  /** The Conductor's and the local workers' generations, one at a time. */
  readonly gpu = new GpuQueue();
  readonly #loads = new Map<AbortController, RuntimeName>();
  readonly #watchers = new Set<Listener>();
  #status: ConductorLoadStatus | undefined;

  constructor(engine = new EngineHost(), webllm = new WebllmRuntime()) {
    this.engine = engine;
    this.webllm = webllm;
  }

  /** Calls `listener` with every change of the latest load's status, starting with the current one. */
  watch(listener: Listener): void {
    this.#watchers.add(listener);
    if (this.#status) listener(this.#status);
  }

  /** Stops the loads in progress of `runtime` (of both when undefined); each rejects with 'run/aborted'. Says whether there was one. */
  cancel(runtime?: RuntimeName): boolean {
    let any = false;
    for (const [load, of] of this.#loads) {
      if (runtime !== undefined && of !== runtime) continue;
      load.abort();
      any = true;
    }
    return any;
  }

  /** The Conductor page's engine load (files picked on the page come with the request); its progress reaches watchers. */
  loadEngine(request: EngineLoadRequest): Promise<LoadedEngineInfo> {
    return this.#track('engine', describeSource(request.model.source), undefined, (signal, progress) => this.engine.load(request, progress, signal));
  }

  /** The engine model a run needs, loaded if it is not already. */
  readyEngine(model: EngineModelChoice, signal?: AbortSignal): Promise<LoadedEngine> {
    return this.#track('engine', describeSource(model.source), signal, (s, progress) => this.engine.ready(model, progress, s), this.engine.isLoaded(model));
  }

  /** The engine model a pool worker needs: the Conductor's when it is the same, else one loaded for the workers. */
  readyEngineWorker(model: EngineModelChoice, signal?: AbortSignal): Promise<LoadedEngine> {
    const loaded = this.engine.isReady(model);
    return this.#track('engine', describeSource(model.source), signal, (s, progress) => this.engine.readyWorker(model, progress, s), loaded, true);
  }

  /** The Conductor page's web-llm load, its progress reaching watchers; resolves to the model id loaded. */
  async loadWebllm(modelId: string): Promise<string> {
    await this.readyWebllm(modelId);
    return modelId;
  }

  /** The web-llm model a run needs (for its Conductor, or for a pool worker), loaded if it is not already. */
  readyWebllm(modelId: string, signal?: AbortSignal, worker = false): Promise<WebllmReady> {
    return this.#track(
      'webllm',
      modelId,
      signal,
      (s, progress) =>
        this.webllm.ready(modelId, {
          signal: s,
          onProgress: (p) => {
            const mapped = webllmLoadProgress(p);
            if (mapped) progress(mapped);
          },
        }),
      this.webllm.isLoaded(modelId),
      worker,
    );
  }

  #publish(status: ConductorLoadStatus): void {
    this.#status = status;
    for (const listener of this.#watchers) listener(status);
  }

  async #track<T>(
    runtime: RuntimeName,
    model: string,
    signal: AbortSignal | undefined,
    work: (signal: AbortSignal, onProgress: (p: LoadProgress) => void) => Promise<T>,
    loaded = false,
    forWorker = false,
  ): Promise<T> {
    const controller = new AbortController();
    const worker = forWorker ? ({ worker: true } as const) : {};
    // A model already loaded is returned at once: no load to show or cancel.
    if (loaded) return work(controller.signal, () => {});
    const stop = signal ? AbortSignal.any([signal, controller.signal]) : controller.signal;
    this.#loads.set(controller, runtime);
    this.#publish({ runtime, model, state: 'loading', ...worker });
    // A caller may join a load another one started (the same model): its own Stop must still return at once.
    let onAbort: () => void = () => {};
    const aborted = new Promise<never>((_, reject) => {
      onAbort = () => reject(new BatonError({ code: 'run/aborted', message: 'The model load was cancelled.' }));
      stop.addEventListener('abort', onAbort, { once: true });
      if (stop.aborted) onAbort();
    });
    try {
      // Every report crosses to the page: at most ten a second.
      const loading = work(
        stop,
        throttledProgress((progress) => this.#publish({ runtime, model, state: 'loading', progress, ...worker })),
      );
      loading.catch(() => {}); // when the abort wins the race, the load's own rejection is expected
      const result = await Promise.race([loading, aborted]);
      this.#publish({ runtime, model, state: 'ready', ...worker });
      return result;
    } catch (e) {
      const err = toBatonError(e, runtime === 'engine' ? 'engine/model-file' : 'internal');
      this.#publish(
        stop.aborted || err.code === 'run/aborted'
          ? { runtime, model, state: 'cancelled', ...worker }
          : { runtime, model, state: 'failed', error: { code: err.code, message: err.message }, ...worker },
      );
      throw stop.aborted && err.code !== 'run/aborted' ? new BatonError({ code: 'run/aborted', message: 'The model load was cancelled.', cause: e }) : err;
    } finally {
      stop.removeEventListener('abort', onAbort);
      this.#loads.delete(controller);
    }
  }
}

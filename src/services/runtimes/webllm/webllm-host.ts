/**
 * web-llm inside a web worker: at most one web-llm model loaded at a time (each holds gigabytes
 * of GPU memory), reused while runs ask for the same model, unloaded before another one loads.
 */
import type { WebllmEngineOptions } from './engine-config.ts';
import { loadWebllmEngine } from './load-engine.ts';
import type { WebllmModelChoice } from './model-choices.ts';
import type { WebllmChatEngine } from './webllm-conductor.ts';

/** What the host keeps: an engine the Conductor can use and the host can unload. MLCEngine is one. */
export interface WebllmLoadedEngine extends WebllmChatEngine {
  unload(): Promise<void>;
}

type Loadable = Pick<WebllmModelChoice, 'modelId' | 'record'>;
export type WebllmLoader = (choice: Loadable, options: WebllmEngineOptions & { signal?: AbortSignal }) => Promise<WebllmLoadedEngine>;

interface Slot {
  modelId: string;
  engine: Promise<WebllmLoadedEngine>;
  stop: AbortController;
}

export class WebllmHost {
  readonly #load: WebllmLoader;
  #slot: Slot | undefined;

  /** `load` is web-llm's MLCEngine in this thread unless a test gives another. */
  constructor(load: WebllmLoader = loadWebllmEngine) {
    this.#load = load;
  }

  /** The model loaded, or being loaded, if any. */
  get modelId(): string | undefined {
    return this.#slot?.modelId;
  }

  /**
   * The engine with this model: the one already loaded (or loading: a caller joining a load in progress
   * gets no progress of its own), else a fresh load after unloading the previous model. A failed load
   * leaves nothing behind, so the next call tries again. `signal` stops this load.
   */
  ready(choice: Loadable, options: WebllmEngineOptions & { signal?: AbortSignal }): Promise<WebllmLoadedEngine> {
    if (this.#slot?.modelId === choice.modelId) return this.#slot.engine;
    // The slot is taken at once, so a second call made while the previous model unloads joins this load.
    const previous = this.unload();
    const stop = new AbortController();
    const signal = options.signal ? AbortSignal.any([options.signal, stop.signal]) : stop.signal;
    const slot: Slot = { modelId: choice.modelId, stop, engine: previous.then(() => this.#load(choice, { ...options, signal })) };
    this.#slot = slot;
    slot.engine.catch(() => {
      if (this.#slot === slot) this.#slot = undefined;
    });
    return slot.engine;
  }

  /** Frees the GPU memory of the loaded model, or stops a load in progress. */
  async unload(): Promise<void> {
    const slot = this.#slot;
    this.#slot = undefined;
    if (!slot) return;
    slot.stop.abort();
    const engine = await slot.engine.catch(() => undefined);
    await engine?.unload();
  }
}

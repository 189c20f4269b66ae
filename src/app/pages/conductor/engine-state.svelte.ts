/**
 * The Conductor page's view of Baton's engine in the Conductor worker: what this browser supports,
 * what is loaded, the progress of a load (which can be cancelled), and the download cache. Calls go
 * through src/client.
 */
import { toBatonError } from '../../../core/errors/index.ts';
import {
  engineInService,
  runtimesInService,
  type EngineModelChoice,
  type ConductorLoadStatus,
  type LoadProgress,
  type CachedModelFiles,
  type EngineSupport,
  type LoadedEngineInfo,
} from '../../../client/index.ts';
import { loadAdvice } from './load-advice.ts';

/** What a failed or cancelled load says on the page; a cancel is no failure, so it has its own wording. */
export interface LoadMessage {
  code: string;
  message: string;
  /** What the user can do about it, where the message does not say. */
  advice?: string;
}

export function loadMessage(e: unknown, fallback: 'engine/model-file' | 'internal'): LoadMessage {
  const err = toBatonError(e, fallback);
  if (err.code === 'run/aborted') return { code: err.code, message: 'Load cancelled. The Conductor chosen before is still the one in use.' };
  const advice = loadAdvice(err.code);
  return { code: err.code, message: err.message, ...(advice ? { advice } : {}) };
}

export class EngineState {
  support = $state.raw<EngineSupport | undefined>(undefined);
  loaded = $state.raw<LoadedEngineInfo | undefined>(undefined);
  progress = $state.raw<LoadProgress | undefined>(undefined);
  loading = $state(false);
  error = $state.raw<LoadMessage | undefined>(undefined);
  cache = $state.raw<CachedModelFiles[]>([]);

  /** Counts the changes made from here (load, unload, freeing the cache), started and finished. */
  #changes = 0;

  /** What the worker holds; dropped when a change began or ended meanwhile, since it may predate it. */
  async refresh(): Promise<void> {
    const engine = engineInService();
    const before = this.#changes;
    const read = await Promise.all([engine.support(), engine.current(), engine.cached()]);
    if (before === this.#changes) [this.support, this.loaded, this.cache] = read;
  }

  /**
   * Every change ends by reading back what the worker holds: a read dropped because this change began
   * (the page's first read, or the read after an earlier change) is otherwise never made again.
   */
  async #change<T>(act: () => Promise<T>): Promise<T> {
    this.#changes++;
    try {
      return await act();
    } finally {
      this.#changes++;
      // Tidying up must not turn the change's answer into a rejection (the worker may be gone).
      await this.refresh().catch(() => {});
    }
  }

  load(model: EngineModelChoice, files?: File[], adapterFiles?: File[]): Promise<boolean> {
    return this.#change(() => this.#load(model, files, adapterFiles));
  }

  async #load(model: EngineModelChoice, files?: File[], adapterFiles?: File[]): Promise<boolean> {
    this.loading = true;
    this.error = undefined;
    this.progress = undefined;
    const runtimes = runtimesInService();
    try {
      const request = { model, ...(files ? { files } : {}), ...(adapterFiles ? { adapterFiles } : {}) };
      this.loaded = await runtimes.loadEngine(request);
      return true;
    } catch (e) {
      this.error = loadMessage(e, 'engine/model-file');
      return false;
    } finally {
      this.loading = false;
    }
  }

  /** The worker's engine loads as they go, whoever started them (see the Conductor page). */
  follow(status: ConductorLoadStatus): void {
    if (status.state === 'loading') {
      this.loading = true;
      if (status.progress) this.progress = status.progress;
      return;
    }
    this.loading = false;
    this.progress = undefined;
    void this.refresh().catch(() => {});
  }

  async cancel(): Promise<void> {
    await runtimesInService().cancel('engine');
  }

  unload(): Promise<void> {
    return this.#change(() => engineInService().unload());
  }

  clearCache(): Promise<void> {
    return this.#change(() => engineInService().clearCache());
  }
}

/**
 * The Conductor page's view of Baton's engine in the Conductor worker: what this browser supports,
 * what is loaded, the progress of a load, and the download cache. Calls go through client/ask.
 */
import { proxy } from 'comlink';
import { toBatonError } from '../../../core/errors/index.ts';
import { engineInWorker } from '../../../client/ask/index.ts';
import type { EngineModelChoice } from '../../../client/conductors/conductor-choice.ts';
import type { LoadProgress } from '../../../client/conductors/download-meter.ts';
import type { CachedModelFiles, EngineSupport, LoadedEngineInfo } from '../../../client/conductors/engine-host.ts';

export class EngineState {
  support = $state.raw<EngineSupport | undefined>(undefined);
  loaded = $state.raw<LoadedEngineInfo | undefined>(undefined);
  progress = $state.raw<LoadProgress | undefined>(undefined);
  loading = $state(false);
  error = $state.raw<{ code: string; message: string } | undefined>(undefined);
  cache = $state.raw<CachedModelFiles[]>([]);

  async refresh(): Promise<void> {
    const engine = engineInWorker();
    [this.support, this.loaded, this.cache] = await Promise.all([engine.support(), engine.current(), engine.cached()]);
  }

  async load(model: EngineModelChoice, files?: File[], adapterFiles?: File[]): Promise<boolean> {
    this.loading = true;
    this.error = undefined;
    this.progress = undefined;
    try {
      const request = { model, ...(files ? { files } : {}), ...(adapterFiles ? { adapterFiles } : {}) };
      this.loaded = await engineInWorker().load(request, proxy((p: LoadProgress) => (this.progress = p)));
      return true;
    } catch (e) {
      const err = toBatonError(e, 'engine/model-file');
      this.error = { code: err.code, message: err.message };
      return false;
    } finally {
      this.loading = false;
      this.cache = await engineInWorker().cached();
    }
  }

  async unload(): Promise<void> {
    await engineInWorker().unload();
    this.loaded = undefined;
  }

  async clearCache(): Promise<void> {
    await engineInWorker().clearCache();
    this.cache = await engineInWorker().cached();
  }
}

/**
 * The Conductor page's view of web-llm in the Conductor worker: the models this GPU can run (or why
 * none), which one is loaded, a load's progress (which can be cancelled), and which models the browser
 * keeps. Calls go through src/client; web-llm itself only ever runs in the Conductor web worker.
 */
import { toBatonError } from '../../../core/errors/index.ts';
import { runtimesInService, webllmInService, type ConductorLoadStatus, type LoadProgress, type WebllmModelChoice } from '../../../client/index.ts';
import { loadMessage, type LoadMessage } from './engine-state.svelte.ts';

export class WebllmState {
  /** Undefined until the worker answers. */
  choices = $state.raw<WebllmModelChoice[] | undefined>(undefined);
  /** Why web-llm cannot run here, when it cannot. */
  unavailable = $state.raw<LoadMessage | undefined>(undefined);
  /** Model ids whose files the browser keeps. */
  cached = $state.raw<string[]>([]);
  loaded = $state<string | undefined>(undefined);
  /** The model being loaded. */
  loading = $state<string | undefined>(undefined);
  progress = $state.raw<LoadProgress | undefined>(undefined);
  error = $state.raw<LoadMessage | undefined>(undefined);

  async refresh(): Promise<void> {
    const webllm = webllmInService();
    try {
      this.choices = await webllm.choices();
      this.unavailable = undefined;
    } catch (e) {
      const err = toBatonError(e, 'engine/unsupported');
      this.choices = [];
      this.unavailable = { code: err.code, message: err.message };
      return;
    }
    await this.#refreshLoaded();
  }

  /** Which model is loaded and which the browser keeps; a gone worker leaves the page as it was, not broken. */
  async #refreshLoaded(): Promise<void> {
    this.loaded = await webllmInService()
      .current()
      .catch(() => undefined);
    await this.refreshCache();
  }

  async refreshCache(): Promise<void> {
    try {
      this.cached = (await webllmInService().cached()).filter((c) => c.cached).map((c) => c.modelId);
    } catch {
      // The storage web-llm uses is out of reach (e.g. private browsing); the page then lists nothing.
      this.cached = [];
    }
  }

  async load(modelId: string): Promise<boolean> {
    this.loading = modelId;
    this.error = undefined;
    this.progress = undefined;
    const runtimes = runtimesInService();
    try {
      await runtimes.loadWebllm(modelId);
      return true;
    } catch (e) {
      this.error = loadMessage(e, 'internal');
      return false;
    } finally {
      this.loading = undefined;
      await this.#refreshLoaded();
    }
  }

  /** The worker's web-llm loads as they go, whoever started them (see the Conductor page). */
  follow(status: ConductorLoadStatus): void {
    if (status.state === 'loading') {
      this.loading = status.model;
      if (status.progress) this.progress = status.progress;
      return;
    }
    this.loading = undefined;
    this.progress = undefined;
    void this.#refreshLoaded();
  }

  async cancel(): Promise<void> {
    await runtimesInService().cancel('webllm');
  }

  async unload(): Promise<void> {
    await webllmInService().unload();
    this.loaded = undefined;
  }

  async free(modelId: string): Promise<void> {
    this.error = undefined;
    try {
      await webllmInService().free(modelId);
    } catch (e) {
      this.error = loadMessage(e, 'internal');
    }
    await this.refreshCache();
  }
}

/**
 * web-llm as a web worker offers it: the models this GPU can run (read from the worker's own
 * WebGPU adapter, so q4f32 builds where shader-f16 is missing), the one loaded (through WebllmHost),
 * and which are in the browser's cache. What it returns is plain data, so it crosses to the page.
 */
import type { ModelRecord } from '@mlc-ai/web-llm';
import { BatonError } from '../../../core/errors/index.ts';
import type { WebllmLoadProgress } from './load-progress.ts';
import { webllmCapsOf, webllmModelChoices, type WebllmCaps, type WebllmModelChoice } from './model-choices.ts';
import { freeWebllmCache, webllmCacheStatus, type WebllmCacheOptions, type WebllmCacheStatus } from './webllm-cache.ts';
import type { WebllmChatEngine } from './webllm-conductor.ts';
import { WebllmHost } from './webllm-host.ts';

export interface WebllmRuntimeOptions {
  host?: WebllmHost;
  /** What this thread's GPU offers; read from navigator.gpu unless given. */
  caps?: () => Promise<WebllmCaps>;
  /** web-llm's prebuilt model list unless given. */
  prebuilt?: () => Promise<readonly ModelRecord[]>;
  cache?: WebllmCacheOptions;
}

export interface WebllmReady {
  engine: WebllmChatEngine;
  choice: WebllmModelChoice;
}

const gpuHere = () => (globalThis.navigator as (Navigator & { gpu?: GPU }) | undefined)?.gpu;

export class WebllmRuntime {
  readonly #host: WebllmHost;
  readonly #caps: () => Promise<WebllmCaps>;
  readonly #prebuilt: () => Promise<readonly ModelRecord[]>;
  readonly #cache: WebllmCacheOptions;
  #choices: Promise<WebllmModelChoice[]> | undefined;
  /** The model whose load finished; the host's modelId also names one still loading. */
  #loaded: string | undefined;

  constructor(options: WebllmRuntimeOptions = {}) {
    this.#host = options.host ?? new WebllmHost();
    this.#caps = options.caps ?? (() => webllmCapsOf(gpuHere()));
    this.#prebuilt = options.prebuilt ?? (async () => (await import('@mlc-ai/web-llm')).prebuiltAppConfig.model_list);
    this.#cache = options.cache ?? {};
  }

  /** The Conductor models this GPU can run; a BatonError saying why when it runs none. */
  choices(): Promise<WebllmModelChoice[]> {
    if (!this.#choices) {
      const choices = (async () => webllmModelChoices(await this.#caps(), await this.#prebuilt()))();
      choices.catch(() => {
        if (this.#choices === choices) this.#choices = undefined;
      });
      this.#choices = choices;
    }
    return this.#choices;
  }

  /** One of `choices()`, by web-llm's model id (a stored choice may name one this GPU cannot run). */
  async choice(modelId: string): Promise<WebllmModelChoice> {
    const choices = await this.choices();
    const found = choices.find((c) => c.modelId === modelId);
    if (found) return found;
    const f32Only = choices.every((c) => c.precision === 'f32');
    throw new BatonError({
      code: 'engine/unsupported',
      message: `web-llm's ${modelId} is not among the models this GPU can run${f32Only && /q4f16/.test(modelId) ? ' (it needs shader-f16, which this GPU lacks)' : ''}. Choose another model on the Conductor page.`,
      data: { modelId },
    });
  }

  /** The model loaded and ready, if any. */
  current(): string | undefined {
    return this.#loaded;
  }

  isLoaded(modelId: string): boolean {
    return this.#loaded === modelId && this.#host.modelId === modelId;
  }

  /** The engine with this model, loading it (and unloading any other) when needed. */
  async ready(modelId: string, options: { onProgress: (p: WebllmLoadProgress) => void; signal?: AbortSignal }): Promise<WebllmReady> {
    const choice = await this.choice(modelId);
    if (this.#loaded !== modelId) this.#loaded = undefined;
    const engine = await this.#host.ready(choice, { ...options, ...(this.#cache.cache ? { cache: this.#cache.cache } : {}) });
    // A later load may have replaced this one meanwhile.
    if (this.#host.modelId === modelId) this.#loaded = modelId;
    return { engine, choice };
  }

  async unload(): Promise<void> {
    this.#loaded = undefined;
    await this.#host.unload();
  }

  /** Which of the models are stored in the browser. */
  async cached(): Promise<WebllmCacheStatus[]> {
    return Promise.all((await this.choices()).map((c) => webllmCacheStatus(c, this.#cache)));
  }

  /** Deletes a model's files from the browser (a loaded model keeps running). */
  async free(modelId: string): Promise<void> {
    await freeWebllmCache(await this.choice(modelId), this.#cache);
  }
}

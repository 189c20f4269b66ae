/**
 * Whether a web-llm model's files are already in the browser, and deleting them. web-llm's own
 * functions do the work; they sit behind this small interface so the logic around them can be tested
 * where the browser caches they use do not exist. The appConfig is the one the engine loads with, so
 * both look in the same cache backend.
 */
import type { AppConfig } from '@mlc-ai/web-llm';
import { webllmAppConfig, type WebllmCacheBackend } from './engine-config.ts';
import type { WebllmModelChoice } from './model-choices.ts';
import { toWebllmError } from './webllm-error.ts';

/** The two web-llm functions used here; `await import('@mlc-ai/web-llm')` satisfies it. */
export interface WebllmCacheApi {
  hasModelInCache(modelId: string, appConfig?: AppConfig): Promise<boolean>;
  deleteModelAllInfoInCache(modelId: string, appConfig?: AppConfig): Promise<void>;
}

export interface WebllmCacheOptions {
  cache?: WebllmCacheBackend;
  /** web-llm itself unless given. */
  api?: WebllmCacheApi;
}

export interface WebllmCacheStatus {
  modelId: string;
  /** All of the model's weights are stored (web-llm checks the weights; library and config are small). */
  cached: boolean;
}

async function cacheApi(options: WebllmCacheOptions): Promise<WebllmCacheApi> {
  return options.api ?? (await import('@mlc-ai/web-llm'));
}

type CachedModel = Pick<WebllmModelChoice, 'modelId' | 'record'>;

export async function webllmCacheStatus(choice: CachedModel, options: WebllmCacheOptions = {}): Promise<WebllmCacheStatus> {
  try {
    const api = await cacheApi(options);
    return { modelId: choice.modelId, cached: await api.hasModelInCache(choice.modelId, webllmAppConfig(choice, options.cache)) };
  } catch (e) {
    throw toWebllmError(e);
  }
}

/**
 * Deletes the model's weights, library and config from the cache. web-llm reads the list of weight
 * files through the cache, fetching it when it is not stored; offline, with nothing stored, that fetch
 * fails although there is nothing to delete, so that case counts as done.
 */
export async function freeWebllmCache(choice: CachedModel, options: WebllmCacheOptions = {}): Promise<void> {
  const appConfig = webllmAppConfig(choice, options.cache);
  try {
    const api = await cacheApi(options);
    try {
      await api.deleteModelAllInfoInCache(choice.modelId, appConfig);
    } catch (e) {
      if (toWebllmError(e).code === 'provider/network' && !(await api.hasModelInCache(choice.modelId, appConfig))) return;
      throw e;
    }
  } catch (e) {
    throw toWebllmError(e);
  }
}

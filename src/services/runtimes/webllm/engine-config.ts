/**
 * What Baton hands web-llm to load one Conductor model: an appConfig that lists only that model (so
 * web-llm cannot fall back to anything else), the cache it keeps the files in, a quiet log, and a
 * progress callback already mapped to Baton's shape. The same appConfig locates the files for the
 * cache helpers.
 */
import type { AppConfig, MLCEngineConfig } from '@mlc-ai/web-llm';
import { createWebllmProgressMapper, type WebllmLoadProgress } from './load-progress.ts';
import type { WebllmModelChoice } from './model-choices.ts';

/**
 * Where web-llm keeps downloaded files. Its docs call the Cache API the best tested; IndexedDB is the
 * alternative it offers (its older `useIndexedDBCache` flag became `cacheBackend`).
 */
export type WebllmCacheBackend = 'cache' | 'indexeddb';

export interface WebllmEngineSetup {
  modelId: string;
  engineConfig: MLCEngineConfig;
}

export interface WebllmEngineOptions {
  onProgress: (progress: WebllmLoadProgress) => void;
  cache?: WebllmCacheBackend;
  /** Milliseconds, for speed and time left; performance.now by default. */
  now?: () => number;
}

export function webllmAppConfig(choice: Pick<WebllmModelChoice, 'record'>, cache: WebllmCacheBackend = 'cache'): AppConfig {
  return { model_list: [choice.record], cacheBackend: cache };
}

export function buildWebllmEngineConfig(choice: Pick<WebllmModelChoice, 'modelId' | 'record'>, options: WebllmEngineOptions): WebllmEngineSetup {
  const toBaton = createWebllmProgressMapper(options.now);
  return {
    modelId: choice.modelId,
    engineConfig: {
      appConfig: webllmAppConfig(choice, options.cache),
      initProgressCallback: (report) => options.onProgress(toBaton(report)),
      // Errors still reach Baton as exceptions; web-llm's own console chatter is not wanted.
      logLevel: 'ERROR',
    },
  };
}

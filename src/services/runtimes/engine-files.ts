/**
 * The files of an engine model or adapter, wherever the choice says they are: the demo model served
 * with the app, a Hugging Face repo, any base URL, or files the user picked (passed in with the
 * request, since they cannot be stored). URL files go through Cache Storage, and so do the answers
 * that an optional file is missing, so a reload asks the server nothing.
 */
import { BatonError } from '../../core/errors/index.ts';
import { filesFromPicked, filesFromUrl, hubUrl, type DownloadProgress, type ModelFiles } from '../../engine/model/index.ts';
import type { EngineAdapterSource, EngineModelSource } from '../../core/conductor/index.ts';
import { trainedAdapterFiles } from './trained-adapters.ts';

/** The Cache Storage cache the engine's downloads live in. */
export const MODEL_CACHE = 'baton-models';

/** The demo Conductor under the app's own origin (public/demo-conductor, copied into the build). */
export function demoModelUrl(): string {
  return new URL(`${import.meta.env.BASE_URL}demo-conductor/`, self.location.origin).href;
}

/**
 * Files with their sizes learnt by reading them whole (into the cache) where the server states none:
 * a static host may stream files without Content-Length, which filesFromUrl would take for a missing
 * file. With Cache Storage every file is read whole into the cache anyway, so nothing is read twice.
 */
function sizedByBody(files: ModelFiles): ModelFiles {
  return {
    ...files,
    async size(path) {
      const stated = await files.size(path);
      if (stated !== undefined) return stated;
      try {
        return (await files.read(path)).byteLength;
      } catch (e) {
        if (e instanceof BatonError && e.code === 'engine/model-file' && !e.isRetryable) return undefined; // truly missing
        throw e;
      }
    },
  };
}

/** The cache key that records a file as missing from its server (the query keeps it apart from a real file). */
const missingKey = (base: string, path: string) => `${base.endsWith('/') ? base : `${base}/`}${encodeURI(path)}?missing`;

/** Whether a cache entry is such a record rather than a file. */
export const isMissingRecord = (url: string) => url.endsWith('?missing');

/**
 * Files whose absence is remembered in the cache: the engine asks for optional files (a shard index,
 * generation_config.json) on every load, and without this each would go to the server after a reload.
 */
function missingRemembered(files: ModelFiles, base: string): ModelFiles {
  if (!(globalThis as { caches?: CacheStorage }).caches) return files;
  return {
    ...files,
    async size(path) {
      const cache = await caches.open(MODEL_CACHE);
      if (await cache.match(missingKey(base, path))) return undefined;
      const size = await files.size(path);
      if (size === undefined) await cache.put(missingKey(base, path), new Response(null, { status: 404 }));
      return size;
    },
  };
}

/** fetch with `signal` attached, so cancelling a load cuts its downloads (and nothing half-read is cached). */
function fetchUntil(signal: AbortSignal | undefined): typeof fetch | undefined {
  return signal && ((input, init) => globalThis.fetch(input, { ...init, signal }));
}

export function engineFiles(
  source: EngineModelSource,
  picked: File[] | undefined,
  onProgress: (p: DownloadProgress) => void,
  signal?: AbortSignal,
): ModelFiles {
  const fetch = fetchUntil(signal);
  const options = { cacheName: MODEL_CACHE, onProgress, ...(fetch ? { fetch } : {}) };
  const fromUrl = (base: string) => missingRemembered(sizedByBody(filesFromUrl(base, options)), base);
  switch (source.from) {
    case 'demo':
      return fromUrl(demoModelUrl());
    case 'hub':
      return fromUrl(hubUrl(source.repo));
    case 'url':
      return fromUrl(source.url);
    case 'picked':
      if (!picked || picked.length === 0) {
        throw new BatonError({
          code: 'run/config',
          message: `The files of ${source.name} were picked before this tab reloaded; pick them again on the Conductor page.`,
        });
      }
      return filesFromPicked(picked, source.name);
    case 'dir':
      throw new BatonError({
        code: 'run/config',
        message: `${source.path} is a model directory, which a browser tab cannot read: load the model from the Hub, a URL or picked files.`,
      });
  }
}

/** An adapter's files: as a model's, or one trained in this browser, from IndexedDB. */
export function adapterFiles(
  source: EngineAdapterSource,
  picked: File[] | undefined,
  onProgress: (p: DownloadProgress) => void,
  signal?: AbortSignal,
): ModelFiles {
  return source.from === 'trained' ? trainedAdapterFiles(source.name) : engineFiles(source, picked, onProgress, signal);
}

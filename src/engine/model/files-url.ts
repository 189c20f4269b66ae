/**
 * Model files under a base URL (the Hugging Face Hub, or any static server).
 *
 * With Cache Storage (browsers), each file is downloaded once, whole, into the cache and read from
 * there by Blob slices, so a reload does not download again. Without it (Node, or `cache: false`),
 * each read is an HTTP Range request; a server that ignores Range is handled by slicing its reply.
 */
import { BatonError } from '../../core/errors/index.ts';
import { clampRange, missingFile, type ModelFiles } from './files.ts';

export interface DownloadProgress {
  file: string;
  /** Bytes of `file` received so far. */
  loaded: number;
  total?: number;
}

export interface UrlFilesOptions {
  onProgress?: (p: DownloadProgress) => void;
  /** Cache Storage to keep files in; defaults to globalThis.caches where it exists; false: none. */
  caches?: CacheStorage | false;
  /** Name of the cache inside Cache Storage. */
  cacheName?: string;
  /** Extra request headers (e.g. Authorization for a gated Hub repo). */
  headers?: Record<string, string>;
  fetch?: typeof fetch;
}

/** The base URL of a Hub repository's files at a revision. */
export function hubUrl(repo: string, revision = 'main'): string {
  return `https://huggingface.co/${repo}/resolve/${encodeURIComponent(revision)}/`;
}

function networkError(base: string, path: string, detail: string, cause?: unknown, retryable = true): BatonError {
  return new BatonError({
    code: 'engine/model-file',
    message: `Could not download ${path} from ${base} (${detail}); check the connection and the model address, then retry.`,
    data: { file: path, source: base },
    cause,
    isRetryable: retryable,
  });
}

/** Reads a response body to the end, reporting progress as it goes. */
async function readBody(res: Response, report: (loaded: number) => void): Promise<Uint8Array<ArrayBuffer>> {
  if (!res.body) return new Uint8Array(await res.arrayBuffer());
  const chunks: Uint8Array[] = [];
  let loaded = 0;
  const reader = res.body.getReader();
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    chunks.push(value);
    loaded += value.byteLength;
    report(loaded);
  }
  const out = new Uint8Array(loaded);
  let p = 0;
  for (const c of chunks) {
    out.set(c, p);
    p += c.byteLength;
  }
  return out;
}

function lengthOf(res: Response): number | undefined {
  const range = res.headers.get('content-range')?.match(/\/(\d+)$/);
  const n = Number(range?.[1] ?? res.headers.get('x-linked-size') ?? res.headers.get('content-length') ?? NaN);
  return Number.isFinite(n) ? n : undefined;
}

export function filesFromUrl(base: string, options: UrlFilesOptions = {}): ModelFiles {
  const root = base.endsWith('/') ? base : `${base}/`;
  const doFetch = options.fetch ?? globalThis.fetch.bind(globalThis);
  const storage = options.caches === false ? undefined : (options.caches ?? (globalThis as { caches?: CacheStorage }).caches);
  const cacheName = options.cacheName ?? 'baton-models';
  const urlOf = (path: string) => root + path.split('/').map(encodeURIComponent).join('/');
  const sizes = new Map<string, Promise<number | undefined>>();
  const blobs = new Map<string, Promise<Blob>>();
  const received = new Map<string, number>();

  /** The response, or undefined for a 404. */
  const fetchFile = async (path: string, init: RequestInit = {}): Promise<Response | undefined> => {
    let res: Response;
    try {
      res = await doFetch(urlOf(path), { ...init, headers: { ...options.headers, ...(init.headers as Record<string, string>) } });
    } catch (e) {
      throw networkError(root, path, (e as Error).message, e);
    }
    if (res.status === 404) return undefined;
    if (res.status === 401 || res.status === 403) {
      throw networkError(root, path, `HTTP ${res.status}: the repository is private or gated; pass an access token in headers`, undefined, false);
    }
    if (!res.ok) throw networkError(root, path, `HTTP ${res.status}`, undefined, res.status >= 500 || res.status === 429);
    return res;
  };
  const request = async (path: string, init: RequestInit = {}): Promise<Response> => {
    const res = await fetchFile(path, init);
    if (!res) throw missingFile(files, path);
    return res;
  };

  /**
   * The whole file from Cache Storage, downloading it into the cache first if needed. The download
   * streams straight into the cache (counted on the way for progress), so it is never held in memory.
   */
  const cachedBlob = (path: string, cacheStorage: CacheStorage): Promise<Blob> => {
    let blob = blobs.get(path);
    if (!blob) {
      blob = (async () => {
        const cache = await cacheStorage.open(cacheName);
        const url = urlOf(path);
        const hit = await cache.match(url);
        if (hit) return hit.blob();
        const res = await request(path);
        const total = lengthOf(res);
        let loaded = 0;
        const counted = res.body?.pipeThrough(
          new TransformStream<Uint8Array, Uint8Array>({
            transform(chunk, controller) {
              loaded += chunk.byteLength;
              options.onProgress?.({ file: path, loaded, total });
              controller.enqueue(chunk);
            },
          }),
        );
        try {
          await cache.put(url, new Response(counted ?? (await res.arrayBuffer())));
        } catch (e) {
          throw networkError(root, path, `download or cache write failed: ${(e as Error).message}`, e);
        }
        const stored = await cache.match(url);
        if (!stored) throw networkError(root, path, 'the browser cache did not keep the file');
        return stored.blob();
      })();
      blob.catch(() => blobs.delete(path)); // a failed download may be retried
      blobs.set(path, blob);
    }
    return blob;
  };

  const size = (path: string): Promise<number | undefined> => {
    let s = sizes.get(path);
    if (!s) {
      s = (async () => {
        if (storage) {
          const hit = await (await storage.open(cacheName)).match(urlOf(path));
          if (hit) return (await hit.blob()).size;
        }
        const head = await fetchFile(path, { method: 'HEAD' });
        if (!head) return undefined;
        return lengthOf(head) ?? lengthOf(await request(path, { headers: { range: 'bytes=0-0' } }));
      })();
      s.catch(() => sizes.delete(path));
      sizes.set(path, s);
    }
    return s;
  };

  /** GET with progress counted across all reads of the file; `partial` when the server sent a 206. */
  const download = async (path: string, headers: Record<string, string>, total?: number) => {
    const res = await request(path, { headers });
    const before = received.get(path) ?? 0;
    const report = (loaded: number) => options.onProgress?.({ file: path, loaded: before + loaded, total: total ?? lengthOf(res) });
    const bytes = await readBody(res, report);
    received.set(path, before + bytes.byteLength);
    return { bytes, partial: res.status === 206 };
  };

  const files: ModelFiles = {
    name: root,
    size,
    async read(path, start, end) {
      if (storage) {
        const blob = await cachedBlob(path, storage);
        const [s, e] = clampRange(path, blob.size, start, end);
        return new Uint8Array(await blob.slice(s, e).arrayBuffer());
      }
      if (start === undefined && end === undefined) return (await download(path, {})).bytes;
      const total = await size(path);
      if (total === undefined) throw missingFile(files, path);
      const [s, e] = clampRange(path, total, start, end);
      if (e === s) return new Uint8Array(0);
      const { bytes, partial } = await download(path, { range: `bytes=${s}-${e - 1}` }, total);
      return partial ? bytes : bytes.subarray(s, e); // a server that ignores Range sends the whole file
    },
  };
  return files;
}

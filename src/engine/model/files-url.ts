/**
 * Model files under a base URL (the Hugging Face Hub, or any static server).
 *
 * With Cache Storage (browsers), each file is downloaded once, whole, into the cache and read from
 * there by Blob slices, so a reload does not download again. Without it (Node, or `cache: false`),
 * each read is an HTTP Range request; a server that ignores Range is handled by slicing its reply.
 *
 * A web page answered for a model file is a missing file, never cached: single-page-app hosts (`vite
 * preview`, which `npm start` runs, and many static hosts) answer any unknown path with their
 * index.html and status 200.
 */
import { BatonError } from '../../core/errors/index.ts';
import { clampRange, missingFile, type ModelFiles } from './files.ts';

export interface DownloadProgress {
  file: string;
  /** Bytes of `file` received so far. */
  loaded: number;
  total?: number;
}

interface UrlFilesOptions {
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

function concat(chunks: readonly Uint8Array[], size: number): Uint8Array<ArrayBuffer> {
  const out = new Uint8Array(size);
  let p = 0;
  for (const c of chunks) {
    out.set(c, p);
    p += c.byteLength;
  }
  return out;
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
  return concat(chunks, loaded);
}

/** How many bytes of a body are looked at to tell a web page from a model file. */
const SNIFF_BYTES = 64;

/**
 * Whether the start of a body is a web page's. A JSON file cannot start with '<'; any other file must
 * start with a page's opening tag, since a single '<' can begin a real safetensors file (its first
 * byte is the low byte of the header's length), but '<!doctype' or '<html' would be a header longer
 * than any file.
 */
function startsLikeHtml(path: string, head: Uint8Array): boolean {
  const text = new TextDecoder()
    .decode(head.subarray(0, SNIFF_BYTES))
    .replace(/^\uFEFF/, '')
    .trimStart();
  return path.endsWith('.json') ? text.startsWith('<') : /^<(?:!doctype|html)/i.test(text);
}

const isHtmlType = (res: Response) => /^\s*text\/html\b/i.test(res.headers.get('content-type') ?? '');

/**
 * The response with its first bytes read ahead (`head`) and put back in front of the rest, so the
 * body can be checked before anything stores or counts it.
 */
async function peek(res: Response): Promise<{ res: Response; head: Uint8Array }> {
  if (!res.body) return { res, head: new Uint8Array(0) };
  const reader = res.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  let done = false;
  while (size < SNIFF_BYTES && !done) {
    const next = await reader.read();
    done = next.done;
    if (next.value) {
      chunks.push(next.value);
      size += next.value.byteLength;
    }
  }
  const head = concat(chunks, size);
  const body = new ReadableStream<Uint8Array>({
    start(controller) {
      if (size > 0) controller.enqueue(head);
      if (done) controller.close();
    },
    async pull(controller) {
      const next = await reader.read();
      if (next.done) controller.close();
      else controller.enqueue(next.value);
    },
    cancel: (reason) => reader.cancel(reason),
  });
  return { res: new Response(body, { status: res.status, statusText: res.statusText, headers: res.headers }), head };
}

/** Where a response's body starts in its file: 0 unless it is a 206 for a later range. */
const bodyStart = (res: Response) => (res.status === 206 ? Number(/bytes (\d+)-/.exec(res.headers.get('content-range') ?? '')?.[1] ?? 0) : 0);

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

  /** The response, or undefined for a 404 or a web page answered in the file's place. */
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
    if (isHtmlType(res)) {
      await res.body?.cancel();
      return undefined;
    }
    if (init.method === 'HEAD' || bodyStart(res) !== 0) return res;
    const peeked = await peek(res);
    if (!startsLikeHtml(path, peeked.head)) return peeked.res;
    await peeked.res.body?.cancel();
    return undefined;
  };
  /** The cached copy of a file; a web page cached in its place before Baton knew better is dropped. */
  const cachedCopy = async (cache: Cache, path: string): Promise<Blob | undefined> => {
    const blob = await (await cache.match(urlOf(path)))?.blob();
    if (!blob || !startsLikeHtml(path, new Uint8Array(await blob.slice(0, SNIFF_BYTES).arrayBuffer()))) return blob;
    await cache.delete(urlOf(path));
    return undefined;
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
        const hit = await cachedCopy(cache, path);
        if (hit) return hit;
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
          const hit = await cachedCopy(await storage.open(cacheName), path);
          if (hit) return hit.size;
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

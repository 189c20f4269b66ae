import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { preview, type PreviewServer } from 'vite';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BatonError } from '../../../../src/core/errors/index.ts';
import { filesFromPicked } from '../../../../src/engine/model/files-picked.ts';
import { filesFromUrl, hubUrl, type DownloadProgress } from '../../../../src/engine/model/files-url.ts';
import { openTensorSource } from '../../../../src/engine/model/tensor-source.ts';
import { writeSafetensors } from '../../../../src/engine/model/safetensors.ts';

const weights = new Float32Array(3000).map((_, i) => Math.sin(i));
const served: Record<string, Uint8Array<ArrayBuffer>> = {
  'model.safetensors': writeSafetensors([
    { name: 'a', dtype: 'F32', shape: [1000, 3], data: weights },
    { name: 'b', dtype: 'F16', shape: [4], data: new Float32Array([1, 2, 3, 4]) },
  ]),
  'sub dir/config.json': new TextEncoder().encode('{"x": 1}'),
};

/** A static server; `ranges` says whether it honours Range requests. Counts GETs per path. */
function startServer(ranges: boolean): Promise<{ server: Server; base: string; gets: Map<string, number> }> {
  const gets = new Map<string, number>();
  const server = createServer((req, res) => {
    const path = decodeURIComponent(new URL(req.url!, 'http://x').pathname.replace(/^\/m\//, ''));
    const body = served[path];
    if (!body) return res.writeHead(404).end();
    if (req.method === 'HEAD') return res.writeHead(200, { 'content-length': body.byteLength }).end();
    gets.set(path, (gets.get(path) ?? 0) + 1);
    const range = /bytes=(\d+)-(\d+)/.exec(req.headers.range ?? '');
    if (ranges && range) {
      const [s, e] = [Number(range[1]), Number(range[2]) + 1];
      res.writeHead(206, { 'content-range': `bytes ${s}-${e - 1}/${body.byteLength}`, 'content-length': e - s });
      return res.end(body.subarray(s, e));
    }
    res.writeHead(200, { 'content-length': body.byteLength }).end(body);
  });
  return new Promise((resolve) =>
    server.listen(0, '127.0.0.1', () => resolve({ server, base: `http://127.0.0.1:${(server.address() as AddressInfo).port}/m`, gets })),
  );
}

/** Just enough of the browser's Cache Storage (absent in Node) to show that a reload downloads nothing. */
class MemoryCaches {
  readonly entries = new Map<string, ArrayBuffer>();
  async open() {
    return {
      match: async (url: string) => (this.entries.has(url) ? new Response(this.entries.get(url)!.slice(0)) : undefined),
      put: async (url: string, res: Response) => void this.entries.set(url, await res.arrayBuffer()),
      delete: async (url: string) => this.entries.delete(url),
    };
  }
}

describe.each([true, false])('filesFromUrl (server honours Range: %s)', (ranges) => {
  let env: Awaited<ReturnType<typeof startServer>>;
  beforeAll(async () => {
    env = await startServer(ranges);
  });
  afterAll(() => new Promise<void>((done) => env.server.close(() => done())));

  it('reads tensors by range and reports progress against the file size', async () => {
    const progress: DownloadProgress[] = [];
    const files = filesFromUrl(env.base, { caches: false, onProgress: (p) => progress.push(p) });
    const source = await openTensorSource(files);
    expect(await source.read('a')).toEqual(weights);
    expect([...(await source.read('b'))]).toEqual([1, 2, 3, 4]);
    const total = served['model.safetensors'].byteLength;
    expect(progress.length).toBeGreaterThan(0);
    expect(progress.every((p) => p.file === 'model.safetensors' && p.total === total)).toBe(true);
    if (ranges) expect(progress.at(-1)!.loaded).toBe(total); // header + both tensors = the whole file, once
  });

  it('encodes paths and reads whole files', async () => {
    const files = filesFromUrl(`${env.base}/`, { caches: false });
    expect(new TextDecoder().decode(await files.read('sub dir/config.json'))).toBe('{"x": 1}');
  });

  it('says a missing file is missing', async () => {
    const files = filesFromUrl(env.base, { caches: false });
    expect(await files.size('model.safetensors.index.json')).toBeUndefined();
    const e = await files.read('tokenizer.json').catch((x) => x);
    expect(BatonError.is(e, 'engine/model-file')).toBe(true);
    expect(e.message).toContain(`tokenizer.json is missing from ${env.base}/`);
  });

  it('with Cache Storage, downloads each file once and not again after a reload', async () => {
    const caches = new MemoryCaches() as unknown as CacheStorage;
    env.gets.clear();
    const progress: DownloadProgress[] = [];
    const onProgress = (p: DownloadProgress) => progress.push(p);
    const first = await openTensorSource(filesFromUrl(env.base, { caches, onProgress }));
    expect(await first.read('a')).toEqual(weights);
    expect(env.gets.get('model.safetensors')).toBe(1);
    const total = served['model.safetensors'].byteLength;
    expect(progress.at(-1)).toEqual({ file: 'model.safetensors', loaded: total, total });
    progress.length = 0;
    const reloaded = await openTensorSource(filesFromUrl(env.base, { caches, onProgress }));
    expect(await reloaded.read('a')).toEqual(weights);
    expect(env.gets.get('model.safetensors')).toBe(1);
    expect(progress).toEqual([]);
  });
});

describe('other sources', () => {
  it('builds Hub URLs', () => {
    expect(hubUrl('Qwen/Qwen3-0.6B')).toBe('https://huggingface.co/Qwen/Qwen3-0.6B/resolve/main/');
  });

  it('reads picked files by their path inside the picked folder', async () => {
    const file = new File([served['model.safetensors']], 'model.safetensors');
    Object.defineProperty(file, 'webkitRelativePath', { value: 'my-model/model.safetensors' });
    const files = filesFromPicked([file, new File(['{}'], 'config.json')]);
    expect((await files.list!()).sort()).toEqual(['config.json', 'model.safetensors']);
    expect(await (await openTensorSource(files)).read('a')).toEqual(weights);
    await expect(files.read('tokenizer.json')).rejects.toThrow(/tokenizer\.json is missing from the picked files/);
  });
});

const PAGE = '<!doctype html>\n<html><head><title>Baton</title></head><body><div id="app"></div></body></html>\n';

describe('a host that answers a missing file with its web page (status 200)', () => {
  // The server `npm start` runs: vite preview, whose single-page-app fallback sends index.html for any unknown path.
  let dir: string;
  let server: PreviewServer;
  let base: string;
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'baton-preview-'));
    await mkdir(join(dir, 'm'));
    await writeFile(join(dir, 'index.html'), PAGE);
    await writeFile(join(dir, 'm', 'config.json'), '{"x": 1}');
    await writeFile(join(dir, 'm', 'model.safetensors'), served['model.safetensors']);
    server = await preview({ root: dir, configFile: false, logLevel: 'silent', build: { outDir: dir }, preview: { host: '127.0.0.1', port: 0 } });
    base = `http://127.0.0.1:${(server.httpServer.address() as AddressInfo).port}/m/`;
  });
  afterAll(async () => {
    await server.close();
    await rm(dir, { recursive: true, force: true });
  });

  it('vite preview really answers so', async () => {
    const res = await fetch(`${base}generation_config.json`);
    expect([res.status, res.headers.get('content-type'), await res.text()]).toEqual([200, 'text/html', PAGE]);
  });

  it.each([false, true])('reads the page as a missing file and caches nothing of it (Cache Storage: %s)', async (withCache) => {
    const caches = new MemoryCaches();
    const files = filesFromUrl(base, { caches: withCache ? (caches as unknown as CacheStorage) : false });
    expect(await files.size('generation_config.json')).toBeUndefined();
    const e = await files.read('generation_config.json').catch((x) => x);
    expect(BatonError.is(e, 'engine/model-file')).toBe(true);
    expect(e.message).toBe(`generation_config.json is missing from ${base}; check that the model directory is complete.`);
    // The files that are there still read, by range and whole.
    expect(await (await openTensorSource(files)).read('a')).toEqual(weights);
    expect(new TextDecoder().decode(await files.read('config.json'))).toBe('{"x": 1}');
    expect([...caches.entries.keys()].sort()).toEqual(withCache ? [`${base}config.json`, `${base}model.safetensors`] : []);
  });
});

describe('a host that sends its web page without saying it is HTML', () => {
  let env: { server: Server; base: string };
  beforeAll(async () => {
    const server = createServer((req, res) => {
      const path = new URL(req.url!, 'http://x').pathname;
      if (path === '/m/config.json') return res.writeHead(200, { 'content-type': 'application/json' }).end('{"x": 1}');
      res.writeHead(200, { 'content-type': 'application/octet-stream' }).end(req.method === 'HEAD' ? undefined : PAGE);
    });
    await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
    env = { server, base: `http://127.0.0.1:${(server.address() as AddressInfo).port}/m/` };
  });
  afterAll(() => new Promise<void>((done) => env.server.close(() => done())));

  it.each(['generation_config.json', 'model.safetensors'])('%s: the body gives the page away; it is missing and never cached', async (path) => {
    const caches = new MemoryCaches();
    for (const storage of [caches as unknown as CacheStorage, false as const]) {
      const e = await filesFromUrl(env.base, { caches: storage })
        .read(path)
        .catch((x) => x);
      expect(e.message).toBe(`${path} is missing from ${env.base}; check that the model directory is complete.`);
    }
    expect(caches.entries.size).toBe(0);
  });

  it("a page cached in a file's place by an earlier version is dropped, and the file is missing", async () => {
    const caches = new MemoryCaches();
    caches.entries.set(`${env.base}generation_config.json`, new TextEncoder().encode(PAGE).buffer);
    const files = filesFromUrl(env.base, { caches: caches as unknown as CacheStorage });
    await expect(files.read('generation_config.json')).rejects.toThrow(/generation_config\.json is missing/);
    expect(caches.entries.size).toBe(0);
    expect(new TextDecoder().decode(await files.read('config.json'))).toBe('{"x": 1}');
  });
});

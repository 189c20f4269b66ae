import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
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

/**
 * A static file server on 127.0.0.1 (a secure context, so workers get navigator.gpu) that answers as
 * the Hugging Face Hub does what filesFromUrl asks: Content-Length on HEAD and GET, and a 206 with
 * Content-Range for a single `Range: bytes=a-b`.
 */
import { createReadStream } from 'node:fs';
import { stat } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { extname, join, normalize, sep } from 'node:path';

const TYPES: Record<string, string> = { '.html': 'text/html; charset=utf-8', '.js': 'text/javascript; charset=utf-8', '.json': 'application/json' };

export async function serveWithRanges(root: string): Promise<{ url: string; server: Server }> {
  const server = createServer(async (req, res) => {
    const path = decodeURIComponent(new URL(req.url ?? '/', 'http://x').pathname);
    const file = normalize(join(root, path));
    const info = file.startsWith(root + sep) ? await stat(file).catch(() => undefined) : undefined;
    if (!info?.isFile()) {
      res.writeHead(404).end();
      return;
    }
    const type = TYPES[extname(file)] ?? 'application/octet-stream';
    const range = /^bytes=(\d+)-(\d+)$/.exec(req.headers.range ?? '');
    const [start, end] = range ? [Number(range[1]), Math.min(Number(range[2]), info.size - 1)] : [0, info.size - 1];
    res.writeHead(range ? 206 : 200, {
      'content-type': type,
      'content-length': String(end - start + 1),
      'cache-control': 'no-store',
      ...(range ? { 'content-range': `bytes ${start}-${end}/${info.size}` } : {}),
    });
    if (req.method === 'HEAD') res.end();
    else createReadStream(file, { start, end }).pipe(res);
  });
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, server };
}

/**
 * Builds the app once (vite build into a temporary folder, so a developer's dist/ is left alone) and
 * serves it with `vite preview`, the server `npm start` runs, on a free port of 127.0.0.1 (a secure
 * context, so navigator.gpu exists), for every e2e test file; the URL reaches tests as inject('appUrl').
 * Its quirks are then the tests' too: it answers an unknown path with index.html and status 200. The
 * build's folder reaches tests as inject('appDist'), with its manifest (first-paint.test.ts reads it).
 */
import { mkdtemp, rm } from 'node:fs/promises';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { build, preview } from 'vite';
import type { TestProject } from 'vitest/node';

declare module 'vitest' {
  export interface ProvidedContext {
    appUrl: string;
    appDist: string;
  }
}

export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const root = resolve(import.meta.dirname, '../..');
  const outDir = await mkdtemp(join(tmpdir(), 'baton-e2e-dist-'));
  // Vitest sets NODE_ENV=test, under which Vite builds Svelte's development flavour: the tests, the size
  // check among them, are of the production build that `npm start` serves.
  const nodeEnv = process.env.NODE_ENV;
  process.env.NODE_ENV = 'production';
  try {
    await build({ root, logLevel: 'warn', build: { outDir, emptyOutDir: true, sourcemap: false, manifest: true } });
  } finally {
    process.env.NODE_ENV = nodeEnv;
  }
  const server = await preview({ root, logLevel: 'warn', build: { outDir }, preview: { host: '127.0.0.1', port: 0, strictPort: true } });
  const { port } = server.httpServer.address() as AddressInfo;
  project.provide('appUrl', `http://127.0.0.1:${port}`);
  project.provide('appDist', outDir);
  return async () => {
    await server.close();
    await rm(outDir, { recursive: true, force: true });
  };
}

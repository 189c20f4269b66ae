/**
 * Builds the app once (vite build into a temporary folder, so a developer's dist/ is left alone) and
 * serves it on 127.0.0.1 for every e2e test file; the URL reaches tests as inject('appUrl').
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { build } from 'vite';
import type { TestProject } from 'vitest/node';
import { serveFolder } from './static-server.ts';

declare module 'vitest' {
  export interface ProvidedContext {
    appUrl: string;
  }
}

export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const root = resolve(import.meta.dirname, '../..');
  const outDir = await mkdtemp(join(tmpdir(), 'baton-e2e-dist-'));
  await build({ root, logLevel: 'warn', build: { outDir, emptyOutDir: true, sourcemap: false } });
  const { url, server } = await serveFolder(outDir);
  project.provide('appUrl', url);
  return async () => {
    await new Promise((done) => server.close(done));
    await rm(outDir, { recursive: true, force: true });
  };
}

/**
 * What the browser tests share: the page and module worker of ./fixture built with vite, tiny models
 * written beside them, all served on 127.0.0.1 with Range requests (as from the Hub), and headless
 * Chromium with WebGPU on SwiftShader. Call useWorkerPage inside a describe; the getter it returns is
 * valid inside tests.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import type { Server } from 'node:http';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import type { Page } from 'playwright-core';
import { build } from 'vite';
import { afterAll, beforeAll } from 'vitest';
import { filesFromDir } from '../../../src/engine/model/files-node.ts';
import { openModel, type OpenedModel } from '../../../src/engine/model/index.ts';
import { launchBrowser, type BrowserSession } from '../../support/browser.ts';
import { writeTinyModel, type TinyModelOptions } from '../../support/tiny-model.ts';
import type { EngineRequest, EngineResult } from './fixture/protocol.ts';
import { serveWithRanges } from './range-server.ts';

export interface WorkerPage {
  /** The base URL the worker reads model `name` from. */
  modelUrl(name: string): string;
  /** Model `name` opened from disk here, for the float64 reference. */
  openModel(name: string): Promise<OpenedModel>;
  /** Sends one request to the page's engine worker; a failure reply throws, with the page's console. */
  call<R extends EngineRequest>(request: R): Promise<EngineResult<R>>;
}

export function useWorkerPage(models: Record<string, TinyModelOptions>): () => WorkerPage {
  let outDir: string | undefined;
  let server: Server | undefined;
  let browser: BrowserSession | undefined;
  let ready: WorkerPage | undefined;

  beforeAll(async () => {
    const dir = await mkdtemp(join(tmpdir(), 'baton-engine-worker-'));
    outDir = dir;
    await build({
      root: resolve(import.meta.dirname, 'fixture'),
      configFile: false,
      logLevel: 'warn',
      build: { outDir: dir, emptyOutDir: true, sourcemap: false },
      worker: { format: 'es' },
    });
    for (const [name, options] of Object.entries(models)) await writeTinyModel(join(dir, name), options);
    const served = await serveWithRanges(dir);
    server = served.server;
    browser = await launchBrowser();
    const page = await browser.context.newPage();
    const logs: string[] = [];
    page.on('console', (m) => logs.push(m.text()));
    await page.goto(`${served.url}/index.html`);
    ready = {
      modelUrl: (name) => `${served.url}/${name}/`,
      openModel: (name) => openModel(filesFromDir(join(dir, name))),
      call: (request) => call(page, request, logs),
    };
  });
  afterAll(async () => {
    await browser?.close();
    if (server) await new Promise((done) => server!.close(done));
    if (outDir) await rm(outDir, { recursive: true, force: true });
  });
  return () => {
    if (!ready) throw new Error('the worker page is made in beforeAll; use it inside a test');
    return ready;
  };
}

async function call<R extends EngineRequest>(page: Page, request: R, logs: readonly string[]): Promise<EngineResult<R>> {
  const reply = await page.evaluate((r) => window.engine(r), request);
  if (!reply.ok) throw new Error(`${reply.error}\n${logs.join('\n')}`);
  return reply as EngineResult<R>;
}

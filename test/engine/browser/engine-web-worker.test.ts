/**
 * The engine in a module web worker of headless Chromium (WebGPU on SwiftShader): a tiny page and
 * worker built from ./fixture with vite, served with a tiny model on 127.0.0.1 (read by HTTP Range
 * requests, as from the Hub); the logprobs the worker computes, from f32 and from int4 weights,
 * must equal the float64 reference (on the weights int4 reads back, for int4) computed here in Node.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import type { Server } from 'node:http';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { build } from 'vite';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { filesFromDir } from '../../../src/engine/model/files-node.ts';
import { openModel } from '../../../src/engine/model/index.ts';
import { loadRefModel, refLogprobs } from '../../../src/engine/runtime/index.ts';
import { launchBrowser, type BrowserSession } from '../../support/browser.ts';
import { checkTensor } from '../../support/check-tensor.ts';
import { writeTinyModel } from '../../support/tiny-model.ts';
import type { LogprobsReply } from './fixture/protocol.ts';
import { int4TensorNames, roundTripped } from '../quant/round-tripped-model.ts';
import { serveWithRanges } from './range-server.ts';

const IDS = [9, 140, 33, 201, 5, 77];

describe('the engine in a browser web worker', () => {
  let outDir: string;
  let server: Server;
  let url: string;
  let browser: BrowserSession;

  beforeAll(async () => {
    outDir = await mkdtemp(join(tmpdir(), 'baton-engine-worker-'));
    await build({
      root: resolve(import.meta.dirname, 'fixture'),
      configFile: false,
      logLevel: 'warn',
      build: { outDir, emptyOutDir: true, sourcemap: false },
      worker: { format: 'es' },
    });
    await writeTinyModel(join(outDir, 'model'), { architecture: 'qwen3', dtype: 'BF16', seed: 13, vocab: 256, tokenizer: 'none' });
    ({ url, server } = await serveWithRanges(outDir));
    browser = await launchBrowser();
  });
  afterAll(async () => {
    await browser?.close();
    if (server) await new Promise((done) => server.close(done));
    await rm(outDir, { recursive: true, force: true });
  });

  it('loads a model over HTTP and computes the reference logprobs on navigator.gpu, with f32 and int4 weights', async () => {
    const page = await browser.context.newPage();
    const logs: string[] = [];
    page.on('console', (m) => logs.push(m.text()));
    await page.goto(`${url}/index.html`);
    const opened = await openModel(filesFromDir(join(outDir, 'model')));
    const ref = await loadRefModel(opened.tensors, opened.config);
    const refs = { f32: ref, int4: roundTripped(ref, int4TensorNames(ref, true)) };
    for (const weights of ['f32', 'int4'] as const) {
      const reply: LogprobsReply = await page.evaluate((request) => window.engineLogprobs(request), { modelUrl: `${url}/model/`, ids: IDS, weights });
      if (!reply.ok) throw new Error(`${reply.error}\n${logs.join('\n')}`);
      expect(reply.adapter.architecture).toBe('swiftshader');
      checkTensor(`worker logprobs (${weights})`, reply.logprobs, refLogprobs(refs[weights], IDS), { abs: 1e-4, rel: 1e-3 });
    }
  });
});

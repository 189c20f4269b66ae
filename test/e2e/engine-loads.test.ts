/**
 * Models the user brings to Baton's engine on the Conductor page, in the built app (headless Chromium,
 * WebGPU on SwiftShader, nothing reachable but 127.0.0.1):
 * - a model folder picked from disk loads and runs the next question; wrong picks (no config.json, a
 *   truncated safetensors file, an unsupported architecture) say which file or tensor is wrong and
 *   leave the Conductor chosen before in use;
 * - a LoRA adapter (picked files, on a model from a URL) is applied: the run's logprobs are the
 *   adapted model's, checked against the float64 reference here in Node; switched off, they are the
 *   base model's again;
 * - a Hub repo id becomes the Hub's resolve/main/ addresses: offline, a clear error; with the Hub
 *   answered by this test, model and adapter load from those addresses;
 * - files downloaded from a URL are kept: after a reload the model loads with no request to its
 *   server, and "Free the cache" really empties the cache;
 * - Chromium without WebGPU: the page says so in plain words with what to do, and the demo still
 *   runs, with random routing.
 * The test models are tiny (64 wide, 2 layers, 1024 tokens) and write the workflow lists alone.
 */
import { copyFile, mkdir, mkdtemp, readdir, readFile, rm, truncate, writeFile } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join, normalize, sep } from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, expect, test } from 'vitest';
import type { Episode } from '../../src/core/episodes/index.ts';
import { filesFromDir } from '../../src/engine/model/files-node.ts';
import { openModel, type LoraAdapter } from '../../src/engine/model/index.ts';
import { loadRefModel, refLogprobs, type RefModel } from '../../src/engine/runtime/index.ts';
import { loadTokenizer, type Tokenizer } from '../../src/engine/tokenizer/index.ts';
import { CHROMIUM_FLAGS } from '../support/browser.ts';
import { writeRandomAdapter, writeTinyModel } from '../support/tiny-model.ts';
import { ask, openApp, POLL, storedEpisodes, type AppPage } from './app-page.ts';

/**
 * Serves the folders under `root` to the app's worker (CORS), as a static model host does: HEAD and
 * GET with Content-Length, 404 for what is not there. Every request is noted.
 */
class ModelHost {
  server: Server | undefined;
  url = '';
  requests: string[] = [];

  constructor(readonly root: string) {}

  async start(): Promise<void> {
    this.server = createServer(async (req, res) => {
      const path = decodeURIComponent(new URL(req.url ?? '/', 'http://x').pathname);
      this.requests.push(`${req.method} ${path}`);
      const file = normalize(join(this.root, path));
      const body = file.startsWith(this.root + sep) ? await readFile(file).catch(() => undefined) : undefined;
      const headers = { 'access-control-allow-origin': '*', 'cache-control': 'no-store' };
      if (!body) return void res.writeHead(404, headers).end();
      res.writeHead(200, { ...headers, 'content-length': String(body.byteLength) });
      res.end(req.method === 'HEAD' ? undefined : body);
    });
    await new Promise<void>((done) => this.server!.listen(0, '127.0.0.1', done));
    this.url = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
  }

  async stop(): Promise<void> {
    await new Promise((done) => this.server?.close(done));
  }
}

let dir: string;
let host: ModelHost;
let adapter: LoraAdapter;
let reference: { model: RefModel; tokenizer: Tokenizer };

/** A copy of the tiny model's folder under `name`, changed by `spoil`. */
async function spoiltCopy(name: string, spoil: (folder: string) => Promise<void>): Promise<string> {
  const folder = join(dir, 'spoilt', name);
  await mkdir(folder, { recursive: true });
  for (const file of await readdir(join(dir, 'tiny-qwen'))) await copyFile(join(dir, 'tiny-qwen', file), join(folder, file));
  await spoil(folder);
  return folder;
}

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'baton-engine-loads-'));
  const tiny = await writeTinyModel(join(dir, 'tiny-qwen'), { architecture: 'qwen2', dtype: 'BF16', seed: 7, tokenizer: 'small' });
  adapter = await writeRandomAdapter(join(dir, 'tiny-lora'), {
    model: tiny.config,
    r: 4,
    alpha: 8,
    targetModules: ['q_proj', 'v_proj', 'o_proj', 'down_proj'],
    seed: 8,
  });
  await spoiltCopy('no-config', (f) => rm(join(f, 'config.json')));
  await spoiltCopy('truncated', async (f) => truncate(join(f, 'model.safetensors'), 200_000));
  await spoiltCopy('gpt2', async (f) => {
    const config = JSON.parse(await readFile(join(f, 'config.json'), 'utf8'));
    await writeFile(join(f, 'config.json'), JSON.stringify({ ...config, architectures: ['GPT2LMHeadModel'], model_type: 'gpt2' }));
  });
  const files = filesFromDir(tiny.dir);
  const opened = await openModel(files);
  reference = { model: await loadRefModel(opened.tensors, opened.config), tokenizer: await loadTokenizer(files) };
  host = new ModelHost(dir);
  await host.start();
});
afterAll(async () => {
  await host?.stop();
  await rm(dir, { recursive: true, force: true });
});

let app: AppPage | undefined;
afterEach(() => app?.session.close());

type StoredEpisode = Pick<Episode, 'task' | 'createdAt' | 'conductor' | 'prompt' | 'completion' | 'workflow' | 'status' | 'error'>;

/** The stored episodes of `question`, finished ones only (a run also stores itself as it goes, marked interrupted). */
async function finishedEpisodes(page: Page, question: string): Promise<StoredEpisode[]> {
  return (await storedEpisodes<StoredEpisode>(page)).filter((e) => e.task.question === question && !e.error?.message.startsWith('Interrupted'));
}

/** Runs a question (asked once in the test) on the Ask page and returns its stored episode; a run that fails to start throws what the page says. */
async function runOnce(target: AppPage, question: string): Promise<StoredEpisode> {
  await ask(target, question);
  const alert = target.page.getByRole('main').getByRole('alert');
  const ended = async () => (await finishedEpisodes(target.page, question)).length > 0 || (await alert.count()) > 0;
  await expect.poll(ended, { timeout: 120_000 }).toBe(true);
  const [episode] = await finishedEpisodes(target.page, question);
  if (!episode) throw new Error(`the run did not start: ${await alert.first().textContent()}`);
  await target.page.getByTestId('episode-saved').waitFor();
  return episode;
}

/**
 * The largest gap between the run's logprobs and the float64 reference's for the same tokens, with the
 * adapter and without it: the run was sampled from the model whose gap is ~0.
 */
function logprobGaps(episode: StoredEpisode): { base: number; adapted: number } {
  const { tokenIds, logprobs } = episode.completion;
  if (!tokenIds?.length || logprobs?.length !== tokenIds.length) throw new Error(`the episode has no token logprobs: ${JSON.stringify(episode.completion)}`);
  const prompt = reference.tokenizer.encodeChat(episode.prompt, { continueFinal: true });
  const ids = [...prompt, ...tokenIds];
  const gap = (ref: number[]) => Math.max(...ref.slice(prompt.length - 1).map((lp, i) => Math.abs(lp - logprobs[i])));
  return { base: gap(refLogprobs(reference.model, ids)), adapted: gap(refLogprobs(reference.model, ids, { lora: adapter })) };
}

/** The Conductor choice as stored. */
function storedConductor(page: Page): Promise<unknown> {
  return page.evaluate(() => (JSON.parse(localStorage.getItem('baton.settings') ?? '{}') as { conductor?: unknown }).conductor);
}

const conductorPage = (page: Page) => page.getByRole('navigation', { name: 'Pages' }).getByRole('link', { name: 'Conductor' }).click();

/** Fills the engine form ("Model from", the source, lists only) and presses Load and use. */
async function loadOwnModel(
  page: Page,
  from: { folder: string } | { url: string } | { repo: string },
  adapter?: { folder: string } | { repo: string },
): Promise<void> {
  const form = page.getByRole('form', { name: 'Engine model' });
  if ('folder' in from) {
    await form.getByLabel('Model from').selectOption('picked');
    await form.getByLabel('Model folder').setInputFiles(from.folder);
  } else if ('url' in from) {
    await form.getByLabel('Model from').selectOption('url');
    await form.getByLabel('Model base URL').fill(from.url);
  } else {
    await form.getByLabel('Model from').selectOption('hub');
    await form.getByLabel('Hugging Face repo id').fill(from.repo);
  }
  if (!adapter) await form.getByLabel('LoRA adapter').selectOption('none');
  else if ('folder' in adapter) {
    await form.getByLabel('LoRA adapter').selectOption('picked');
    await form.getByLabel('Adapter folder').setInputFiles(adapter.folder);
  } else {
    await form.getByLabel('LoRA adapter').selectOption('hub');
    await form.getByLabel('Adapter repo id').fill(adapter.repo);
  }
  await form.getByRole('checkbox', { name: /Reasons before its workflow/ }).uncheck();
  await form.getByRole('button', { name: 'Load and use' }).click();
}

/** The engine status once no load is in progress. */
async function settledStatus(page: Page): Promise<string> {
  const status = page.getByTestId('engine-status');
  await expect.poll(() => page.getByRole('button', { name: 'Load and use' }).isEnabled(), { timeout: 60_000 }).toBe(true);
  return ((await status.textContent()) ?? '').replace(/\s+/g, ' ');
}

test('a picked model folder loads and runs; wrong picks name the file or tensor and leave it in use', { timeout: 300_000 }, async () => {
  app = await openApp({ hash: '#/conductor' });
  const { page } = app;
  await page
    .getByTestId('default-note')
    .getByText(/software renderer/)
    .waitFor();
  await loadOwnModel(page, { folder: join(dir, 'tiny-qwen') });
  expect(await settledStatus(page)).toMatch(/Loaded in this tab: tiny-qwen \(2 layers, 64 wide, 1024 tokens, f32 weights\)/);
  await expect.poll(() => page.getByRole('radio', { name: "Your model on Baton's engine" }).isChecked(), POLL).toBe(true);
  const chosen = { kind: 'engine-model', model: { source: { from: 'picked', name: 'tiny-qwen' }, weights: 'auto', reasoning: false } };
  expect(await storedConductor(page)).toEqual(chosen);

  const first = await runOnce(app, 'What is 6 * 7?');
  expect(first.conductor).toMatchObject({ runtime: 'engine', model: 'tiny-qwen' });
  expect(first.workflow?.steps.length).toBeGreaterThanOrEqual(1);
  expect(first.completion.text).toMatch(/^model_id = \[/);

  await conductorPage(page);
  const status = page.getByTestId('engine-status');
  const wrong: [string, RegExp][] = [
    ['no-config', /^config\.json is missing from no-config; check that the model directory is complete\. \(engine\/model-file\)$/],
    [
      'truncated',
      /^model\.safetensors \(tensor [\w.]+\): data ends at byte \d+, past the end of the 200000-byte file\. The file is damaged or incomplete; download it again\. \(engine\/model-file\)$/,
    ],
    ['gpt2', /^config\.json: architecture GPT2LMHeadModel is not supported; the engine runs Qwen2ForCausalLM, .*\(engine\/unsupported\)$/],
  ];
  for (const [name, message] of wrong) {
    await loadOwnModel(page, { folder: join(dir, 'spoilt', name) });
    await settledStatus(page);
    expect(await status.getByRole('alert').textContent()).toMatch(message);
    // Nothing changed: the model before is loaded, chosen and stored.
    expect(await status.getByTestId('engine-loaded').textContent()).toMatch(/Loaded in this tab: tiny-qwen\s/);
    expect(await page.getByRole('radio', { name: "Your model on Baton's engine" }).isChecked()).toBe(true);
    expect(await storedConductor(page)).toEqual(chosen);
  }
  await page.screenshot({ path: join(import.meta.dirname, '__screenshots__', 'engine-wrong-pick-desktop.png'), fullPage: true });

  // Unloaded, the chosen model is loaded again for the next run from the files picked for it, not the wrong ones.
  await status.getByRole('button', { name: 'Unload' }).click();
  await expect.poll(() => status.textContent(), POLL).toMatch(/No engine model loaded/);
  const again = await runOnce(app, 'What is 5 * 8?');
  expect(again.status).not.toBe('infra-error');
  expect(again.conductor).toMatchObject({ runtime: 'engine', model: 'tiny-qwen' });
  expect(again.workflow?.steps.length).toBeGreaterThanOrEqual(1);
  expect(app.errors).toEqual([]);
});

test("a LoRA adapter from picked files is applied (the logprobs are the adapted model's) and switches off", { timeout: 300_000 }, async () => {
  app = await openApp({ hash: '#/conductor', allow: [host.url] });
  const { page } = app;
  await page
    .getByTestId('default-note')
    .getByText(/software renderer/)
    .waitFor();
  const url = `${host.url}/tiny-qwen/`;
  await loadOwnModel(page, { url }, { folder: join(dir, 'tiny-lora') });
  expect(await settledStatus(page)).toContain(`Loaded in this tab: ${url} with adapter tiny-lora (2 layers`);
  await expect.poll(() => page.getByRole('radio', { name: "Your model on Baton's engine" }).isChecked(), POLL).toBe(true);
  expect(await page.getByText(`Chosen: ${url} on Baton's engine + tiny-lora, lists only.`).count()).toBe(1);

  const adapted = await runOnce(app, 'What is 9 * 9?');
  expect(adapted.conductor).toMatchObject({ runtime: 'engine', model: url, adapter: 'tiny-lora' });
  const on = logprobGaps(adapted);
  expect(on.adapted).toBeLessThan(2e-3);
  // The adapter moves the logprobs far more than the GPU's rounding: had it been ignored, this would fail.
  expect(on.base).toBeGreaterThan(0.05);

  // Switched off: the same weights stay on the GPU, without the adapter.
  await conductorPage(page);
  await loadOwnModel(page, { url });
  const status = await settledStatus(page);
  expect(status).toContain(`Loaded in this tab: ${url} (2 layers`);
  expect(status).not.toMatch(/adapter/);
  const plain = await runOnce(app, 'What is 9 * 8?');
  expect(plain.conductor.adapter).toBeUndefined();
  const off = logprobGaps(plain);
  expect(off.base).toBeLessThan(2e-3);
  expect(off.adapted).toBeGreaterThan(0.05);
  expect(app.errors).toEqual([]);
});

test('a Hub repo id: resolve/main/ addresses, a clear error offline, and a load when the Hub answers', { timeout: 120_000 }, async () => {
  app = await openApp({ hash: '#/conductor' });
  const { page } = app;
  await page
    .getByTestId('default-note')
    .getByText(/software renderer/)
    .waitFor();
  const asked: string[] = [];
  app.session.context.on('request', (r) => asked.push(r.url()));

  // Not a repo id: said at once, and nothing can be loaded.
  const form = page.getByRole('form', { name: 'Engine model' });
  await form.getByLabel('Model from').selectOption('hub');
  await form.getByLabel('Hugging Face repo id').fill('https://huggingface.co/baton-test/tiny-qwen/blob/main/config.json');
  expect(await form.getByRole('alert').textContent()).toMatch(/is not a Hugging Face repo id: write it as owner\/name/);
  expect(await form.getByRole('button', { name: 'Load and use' }).isDisabled()).toBe(true);

  // Offline (every request but the app's own is refused as disconnected).
  await loadOwnModel(page, { repo: 'baton-test/tiny-qwen' });
  await settledStatus(page);
  const status = page.getByTestId('engine-status');
  expect(await status.getByRole('alert').textContent()).toMatch(
    /^Could not download [\w.]+ from https:\/\/huggingface\.co\/baton-test\/tiny-qwen\/resolve\/main\/ \(.+\); check the connection and the model address, then retry\. \(engine\/model-file\)$/,
  );
  expect(asked.filter((u) => u.startsWith('https://huggingface.co/')).length).toBeGreaterThan(0);
  expect(
    asked.filter((u) => u.startsWith('https://huggingface.co/')).every((u) => u.startsWith('https://huggingface.co/baton-test/tiny-qwen/resolve/main/')),
  ).toBe(true);
  expect(await storedConductor(page)).toBeUndefined();

  // The Hub answers (this test stands in for it): model and adapter load from the addresses built, a pasted repo address too.
  const served: string[] = [];
  await app.session.context.route(/^https:\/\/huggingface\.co\/baton-test\/tiny-(qwen|lora)\/resolve\/main\/(.+)$/, async (route) => {
    const [, repo, file] = /tiny-(qwen|lora)\/resolve\/main\/(.+)$/.exec(route.request().url())!;
    served.push(`${route.request().method()} tiny-${repo}/${file}`);
    const body = await readFile(join(dir, `tiny-${repo}`, file)).catch(() => undefined);
    await route.fulfill(
      body ? { status: 200, body, headers: { 'access-control-allow-origin': '*' } } : { status: 404, headers: { 'access-control-allow-origin': '*' } },
    );
  });
  await loadOwnModel(page, { repo: 'https://huggingface.co/baton-test/tiny-qwen' }, { repo: 'baton-test/tiny-lora' });
  expect(await settledStatus(page)).toMatch(/Loaded in this tab: baton-test\/tiny-qwen with adapter baton-test\/tiny-lora \(2 layers/);
  for (const file of [
    'tiny-qwen/config.json',
    'tiny-qwen/model.safetensors',
    'tiny-qwen/tokenizer.json',
    'tiny-lora/adapter_config.json',
    'tiny-lora/adapter_model.safetensors',
  ]) {
    expect(served).toContain(`GET ${file}`);
  }
  await expect
    .poll(() => storedConductor(page), POLL)
    .toEqual({
      kind: 'engine-model',
      model: {
        source: { from: 'hub', repo: 'baton-test/tiny-qwen' },
        weights: 'auto',
        adapter: { from: 'hub', repo: 'baton-test/tiny-lora' },
        reasoning: false,
      },
    });
  expect(app.errors.filter((e) => !/Failed to load resource|ERR_INTERNET_DISCONNECTED/.test(e))).toEqual([]);
});

test('URL downloads are kept across a reload (no request to the server) until "Free the cache"', { timeout: 120_000 }, async () => {
  app = await openApp({ hash: '#/conductor', allow: [host.url] });
  const { page } = app;
  await page
    .getByTestId('default-note')
    .getByText(/software renderer/)
    .waitFor();
  const url = `${host.url}/tiny-qwen/`;
  host.requests = [];
  await loadOwnModel(page, { url });
  expect(await settledStatus(page)).toMatch(/Loaded in this tab: http:\/\/127\.0\.0\.1:\d+\/tiny-qwen\/ \(/);
  const downloaded = host.requests.filter((r) => r.startsWith('GET '));
  expect(downloaded).toEqual(expect.arrayContaining(['GET /tiny-qwen/config.json', 'GET /tiny-qwen/model.safetensors', 'GET /tiny-qwen/tokenizer.json']));
  const status = page.getByTestId('engine-status');
  await expect.poll(() => status.textContent(), POLL).toMatch(/Downloaded models kept by this browser: [\d.]+ KB from 1 source\./);

  host.requests = [];
  await page.reload();
  await status.getByText(/No engine model loaded in this tab yet/).waitFor();
  // The form starts from the stored choice: the same URL, loaded again from the browser's cache alone.
  expect(await page.getByLabel('Model base URL').inputValue()).toBe(url);
  await page.getByRole('form', { name: 'Engine model' }).getByRole('button', { name: 'Load and use' }).click();
  expect(await settledStatus(page)).toMatch(/Loaded in this tab: http:\/\/127\.0\.0\.1:\d+\/tiny-qwen\/ \(/);
  expect(host.requests).toEqual([]);

  await status.getByRole('button', { name: 'Unload' }).click();
  await status.getByRole('button', { name: 'Free the cache' }).click();
  await expect.poll(() => status.textContent(), POLL).toMatch(/kept by this browser: none\./);
  expect(await page.evaluate(async () => (await caches.has('baton-models')) && (await (await caches.open('baton-models')).keys()).length)).toBeFalsy();
  await page.getByRole('form', { name: 'Engine model' }).getByRole('button', { name: 'Load and use' }).click();
  expect(await settledStatus(page)).toMatch(/Loaded in this tab: http/);
  expect(host.requests.filter((r) => r.startsWith('GET '))).toEqual(expect.arrayContaining(downloaded));
  expect(app.errors).toEqual([]);
});

test('Chromium without WebGPU: the page says so and what to do; the demo runs with random routing', { timeout: 120_000 }, async () => {
  const withoutWebGpu = CHROMIUM_FLAGS.filter((f) => !f.includes('webgpu'));
  app = await openApp({ hash: '#/conductor', browserArgs: withoutWebGpu });
  const { page } = app;
  const gpu = page.getByTestId('webgpu');
  await expect.poll(() => gpu.textContent(), POLL).toMatch(/found no graphics adapter it may use, so no model can run on your GPU in this tab/);
  expect(await gpu.textContent()).toMatch(/What to do: turn on "Use graphics acceleration when available"/);
  expect(await page.getByTestId('default-note').textContent()).toMatch(/random routing, since this browser offers no WebGPU here/);
  expect(await page.getByRole('radio', { name: "Demo model on Baton's engine" }).isDisabled()).toBe(true);
  expect(await page.getByRole('form', { name: 'Engine model' }).count()).toBe(0);
  await page.screenshot({ path: join(import.meta.dirname, '__screenshots__', 'conductor-no-webgpu-desktop.png'), fullPage: true });

  const byDefault = await runOnce(app, 'What is 2 + 2?');
  expect(byDefault.conductor.runtime).toBe('demo');
  expect(byDefault.workflow?.steps.length).toBeGreaterThanOrEqual(1);

  // The demo engine model chosen earlier (on a GPU): runs use random routing instead, as the page says.
  await page.evaluate(() =>
    localStorage.setItem('baton.settings', JSON.stringify({ conductor: { kind: 'engine-model', model: { source: { from: 'demo' }, weights: 'f32' } } })),
  );
  await page.reload();
  await conductorPage(page);
  await page.getByText('Needs WebGPU, which this browser does not offer here: runs use random routing instead.').waitFor();
  const demo = await runOnce(app, 'What is 3 + 3?');
  expect(demo.conductor.runtime).toBe('demo');
  expect(demo.status).not.toBe('infra-error');

  // A model of one's own cannot run: the run says why and what to choose instead.
  await page.evaluate(() =>
    localStorage.setItem(
      'baton.settings',
      JSON.stringify({ conductor: { kind: 'engine-model', model: { source: { from: 'hub', repo: 'a/b' }, weights: 'int4' } } }),
    ),
  );
  await page.reload();
  await conductorPage(page);
  await page.getByText('Needs WebGPU, which this browser does not offer here (see below).', { exact: true }).waitFor();
  await ask(app, 'What is 4 + 4?');
  await expect
    .poll(() => page.getByRole('alert').first().textContent(), POLL)
    .toMatch(/WebGPU is not available in this tab, so the engine cannot run; choose random routing, a pool worker or a remote endpoint as Conductor/);
  expect(app.errors).toEqual([]);
});

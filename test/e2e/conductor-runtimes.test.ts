/**
 * The Conductor runtimes in the built app (headless Chromium, WebGPU on SwiftShader, no network):
 * - web-llm: the Conductor page lists its prebuilt models as this GPU can run them (SwiftShader has no
 *   shader-f16, so only q4f32 builds); loading one fails offline with a message saying what to do, and
 *   the Conductor in use before still answers questions.
 * - cancel: a model download from a deliberately slow local server is cancelled from the Conductor page
 *   and from the Ask page (a run that must first load its Conductor); the request is really cut, nothing
 *   half-downloaded is cached, and the stored choice is unchanged.
 * Screenshots go to test/e2e/__screenshots__/ for a person to look at.
 */
import { readFile } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, expect, test } from 'vitest';
import { openApp, POLL, type AppPage } from './app-page.ts';

const OUT = join(import.meta.dirname, '__screenshots__');
const DEMO = join(import.meta.dirname, '../../public/demo-conductor');

/**
 * Serves the demo model's files to the app's origin, the weights at a trickle (4 kB every 100 ms, about
 * 9 s in all), and notes each weights download the client broke off before its end.
 */
class SlowModelServer {
  server: Server | undefined;
  url = '';
  weightsRequests = 0;
  cutShort = 0;

  async start(): Promise<void> {
    this.server = createServer(async (req, res) => {
      const name = new URL(req.url ?? '/', 'http://x').pathname.slice(1);
      const body = await readFile(join(DEMO, name)).catch(() => undefined);
      const headers = { 'access-control-allow-origin': '*', 'cache-control': 'no-store' };
      if (!body || name.includes('/')) {
        res.writeHead(404, headers).end();
        return;
      }
      res.writeHead(200, { ...headers, 'content-length': String(body.byteLength) });
      if (req.method === 'HEAD') return void res.end();
      if (name !== 'model.safetensors') return void res.end(body);
      this.weightsRequests += 1;
      let sent = 0;
      const timer = setInterval(() => {
        res.write(body.subarray(sent, sent + 4096));
        sent += 4096;
        if (sent >= body.byteLength) {
          clearInterval(timer);
          res.end();
        }
      }, 100);
      res.on('close', () => {
        clearInterval(timer);
        if (sent < body.byteLength) this.cutShort += 1;
      });
    });
    await new Promise<void>((resolve) => this.server!.listen(0, '127.0.0.1', resolve));
    this.url = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
  }

  async stop(): Promise<void> {
    this.server?.closeAllConnections();
    await new Promise((done) => this.server?.close(done));
  }
}

const slow = new SlowModelServer();
beforeAll(() => slow.start());
afterAll(() => slow.stop());

let app: AppPage | undefined;
afterEach(() => app?.session.close());

/** The Conductor choice as the app stored it (undefined: never changed, the default). */
function storedConductor(page: AppPage['page']): Promise<unknown> {
  return page.evaluate(() => (JSON.parse(localStorage.getItem('baton.settings') ?? '{}') as { conductor?: unknown }).conductor);
}

/** The URLs in the engine's model cache (Cache Storage is shared by the page and its worker). */
function cachedModelUrls(page: AppPage['page']): Promise<string[]> {
  return page.evaluate(async () => ((await caches.has('baton-models')) ? (await (await caches.open('baton-models')).keys()).map((r) => r.url) : []));
}

/** The browser's own log of refused downloads ("Failed to load resource"), which offline web-llm causes by design. */
const refusedDownloads = (errors: string[]) => errors.filter((e) => !/Failed to load resource|ERR_INTERNET_DISCONNECTED/.test(e));

test('web-llm offline: q4f32 models only on a GPU without shader-f16, a clear error, and the previous Conductor still runs', { timeout: 240_000 }, async () => {
  app = await openApp({ hash: '#/conductor' });
  const { page } = app;
  const panel = page.getByTestId('webllm-panel');
  const select = panel.getByLabel('web-llm model');
  await select.waitFor({ timeout: 60_000 });
  const ids = await select.evaluate((s: HTMLSelectElement) => [...s.options].map((o) => o.value));
  expect(ids.slice(0, 3)).toEqual(['Qwen2.5-7B-Instruct-q4f32_1-MLC', 'Qwen2.5-3B-Instruct-q4f32_1-MLC', 'Qwen2.5-1.5B-Instruct-q4f32_1-MLC']);
  expect(ids.every((id) => id.includes('-q4f32_1-'))).toBe(true);
  expect(await panel.innerText()).toMatch(/lacks half-precision shaders \(shader-f16\), so only the 32-bit builds \(q4f32_1\) are listed/);
  await expect.poll(() => page.getByTestId('webllm-cache').textContent(), POLL).toMatch(/kept by this browser: none/);

  // Requests that reach the network (here: refused as offline); one the page's CSP blocked would not.
  const asked: string[] = [];
  app.session.context.on('request', (r) => asked.push(r.url()));
  await select.selectOption('Qwen2.5-1.5B-Instruct-q4f32_1-MLC');
  await panel.getByRole('button', { name: 'Load with web-llm' }).click();
  const error = page.getByTestId('webllm-error');
  await error.waitFor({ timeout: 60_000 });
  expect(await error.textContent()).toMatch(/^Could not download the model's files .*Check that you are online.*\(provider\/network\)$/);
  // The real web-llm, in the Conductor worker, asked the Hub for the chosen build's files.
  expect(asked).toContain('https://huggingface.co/mlc-ai/Qwen2.5-1.5B-Instruct-q4f32_1-MLC/resolve/main/mlc-chat-config.json');
  await page.screenshot({ path: join(OUT, 'conductor-webllm-offline-desktop.png'), fullPage: true });

  // Nothing was chosen: the web-llm option stays unavailable and the stored choice is the default.
  expect(await page.getByRole('radio', { name: 'A web-llm model' }).isDisabled()).toBe(true);
  expect(await storedConductor(page)).toBeUndefined();
  await page.getByRole('link', { name: 'Ask' }).click();
  await page.getByRole('button', { name: 'Run' }).click();
  await page.getByTestId('episode-saved').waitFor({ timeout: 120_000 });
  expect(await page.getByTestId('conductor-text').textContent()).toMatch(/untrained demo Conductor/);
  expect(refusedDownloads(app.errors)).toEqual([]);
  expect(await app.cspViolations()).toEqual([]);
});

test(
  'a slow engine model download is cancelled from the Conductor page: the request is cut, nothing half-read is kept, the model before stays',
  { timeout: 240_000 },
  async () => {
    app = await openApp({ hash: '#/conductor', allow: [slow.url] });
    const { page } = app;
    await page
      .getByTestId('default-note')
      .getByText(/software renderer/)
      .waitFor();
    const form = page.getByRole('form', { name: 'Engine model' });
    const status = page.getByTestId('engine-status');
    // First a model of one's own from the app's origin, quickly: the choice a cancelled load must leave alone.
    await page.getByLabel('Model from').selectOption('url');
    await page.getByLabel('Model base URL').fill(`${app.url}/demo-conductor/`);
    await form.getByRole('button', { name: 'Load and use' }).click();
    await expect.poll(() => status.textContent(), { timeout: 60_000 }).toMatch(/Loaded in this tab: http/);
    await expect.poll(() => page.getByRole('radio', { name: "Your model on Baton's engine" }).isChecked(), POLL).toBe(true);
    const chosen = await storedConductor(page);
    expect(chosen).toEqual({ kind: 'engine-model', model: { source: { from: 'url', url: `${app.url}/demo-conductor/` }, weights: 'auto' } });

    const before = slow.cutShort;
    await page.getByLabel('Model base URL').fill(`${slow.url}/`);
    await form.getByRole('button', { name: 'Load and use' }).click();
    await expect
      .poll(
        () =>
          status
            .getByTestId('load-progress-text')
            .textContent()
            .catch(() => ''),
        { timeout: 60_000 },
      )
      .toMatch(/^Downloading model\.safetensors: \d/);
    await page.screenshot({ path: join(OUT, 'conductor-engine-cancel-desktop.png'), fullPage: true });
    await status.getByRole('button', { name: 'Cancel' }).click();
    const cancelledAt = Date.now();
    await status.getByText('Load cancelled. The Conductor chosen before is still the one in use.').waitFor({ timeout: 5_000 });
    expect(Date.now() - cancelledAt).toBeLessThan(3_000);
    await expect.poll(() => slow.cutShort, POLL).toBe(before + 1);

    expect(await status.getByTestId('load-progress-text').count()).toBe(0);
    // The model loaded before is still loaded and still the choice.
    expect(await status.getByTestId('engine-loaded').textContent()).toContain(`Loaded in this tab: ${app.url}/demo-conductor/`);
    expect(await page.getByRole('radio', { name: "Your model on Baton's engine" }).isChecked()).toBe(true);
    expect(await storedConductor(page)).toEqual(chosen);
    expect((await cachedModelUrls(page)).filter((u) => u.startsWith(slow.url) && u.endsWith('model.safetensors'))).toEqual([]);
    expect(app.errors).toEqual([]);
  },
);

test('a load keeps its progress and Cancel when the user leaves the Conductor page and comes back', { timeout: 240_000 }, async () => {
  app = await openApp({ hash: '#/conductor', allow: [slow.url] });
  const { page } = app;
  const status = page.getByTestId('engine-status');
  const progress = () =>
    status
      .getByTestId('load-progress-text')
      .textContent()
      .catch(() => '');
  await page.getByLabel('Model from').selectOption('url');
  await page.getByLabel('Model base URL').fill(`${slow.url}/`);
  await page.getByRole('form', { name: 'Engine model' }).getByRole('button', { name: 'Load and use' }).click();
  await expect.poll(progress, { timeout: 60_000 }).toMatch(/^Downloading model\.safetensors: \d/);

  const nav = page.getByRole('navigation', { name: 'Pages' });
  await nav.getByRole('link', { name: 'Ask' }).click();
  await page.getByRole('heading', { level: 1, name: 'Ask' }).waitFor();
  await nav.getByRole('link', { name: 'Conductor' }).click();
  await expect.poll(progress, POLL).toMatch(/^Downloading model\.safetensors: \d/);
  const before = slow.cutShort;
  await status.getByRole('button', { name: 'Cancel' }).click();
  await expect.poll(() => slow.cutShort, POLL).toBe(before + 1);
  await expect.poll(() => status.getByTestId('load-progress-text').count(), POLL).toBe(0);
  expect(await status.textContent()).toMatch(/No engine model loaded/);
  expect(app.errors).toEqual([]);
});

test('the Ask page shows a run loading its Conductor model, with a Cancel that stops the run', { timeout: 240_000 }, async () => {
  app = await openApp({ allow: [slow.url] });
  const { page } = app;
  const choice = { kind: 'engine-model', model: { source: { from: 'url', url: `${slow.url}/` }, weights: 'f32' } };
  await page.evaluate((c) => localStorage.setItem('baton.settings', JSON.stringify({ conductor: c })), choice);
  await page.reload();
  await page.getByRole('heading', { level: 1, name: 'Ask' }).waitFor();
  const before = slow.cutShort;
  await page.getByRole('button', { name: 'Run' }).click();
  const status = page.getByTestId('conductor-status');
  await expect
    .poll(() => status.textContent().catch(() => ''), { timeout: 60_000 })
    .toMatch(new RegExp(`Loading the Conductor model first: ${slow.url}/ \\(Baton's engine\\)\\.\\s*Downloading model\\.safetensors: \\d`));
  await expect.poll(() => status.getByTestId('load-progress-text').textContent(), POLL).toMatch(/ of \d+ KB, [\d.]+ KB\/s, about \d+ s left$/);
  await page.screenshot({ path: join(OUT, 'ask-conductor-loading-desktop.png'), fullPage: true });
  await status.getByRole('button', { name: 'Cancel' }).click();
  await page.getByRole('alert').getByText('The model load was cancelled.').waitFor({ timeout: 5_000 });
  expect(await status.count()).toBe(0);
  expect(await page.getByRole('button', { name: 'Run' }).isEnabled()).toBe(true);
  await expect.poll(() => slow.cutShort, POLL).toBe(before + 1);
  expect(await storedConductor(page)).toEqual(choice);
  expect(app.errors).toEqual([]);
});

test('the Conductor page at phone width with the web-llm panel: no sideways scrolling', async () => {
  app = await openApp({ hash: '#/conductor', viewport: { width: 390, height: 844 } });
  const { page } = app;
  await page.getByTestId('webllm-panel').getByLabel('web-llm model').waitFor({ timeout: 60_000 });
  await page.screenshot({ path: join(OUT, 'conductor-webllm-phone.png'), fullPage: true });
  expect(await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth)).toBeLessThanOrEqual(0);
  expect(app.errors).toEqual([]);
});

/**
 * The Content-Security-Policy of the built app: no inline script; the page, and the Conductor worker that
 * runs each Ask, reach only the fixed hosts and the origins of the user's own base URLs; a worker added on
 * a new origin is blocked until the reload the page offers, and works after it. The new origin is the fake
 * provider server again under a second loopback address (127.0.0.2), which no fixed source names.
 */
import { mkdir } from 'node:fs/promises';
import { connect, createServer, type Socket } from 'node:net';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import type { Locator, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, expect, inject, test } from 'vitest';
import { connectSrcDirective } from '../../src/app/state/allowed-origins.ts';
import { startFakeProviderServer, type FakeProviderServer } from '../support/fake-provider-server.ts';
import { openApp, POLL, scrollsSideways, setPool, useWorkerConductor, type AppPage } from './app-page.ts';

const OUT = join(import.meta.dirname, '__screenshots__');

interface Forward {
  url: string;
  close(): Promise<void>;
}

/** Listens on `host` and forwards every connection, byte for byte, to `target`. */
async function forward(host: string, target: string): Promise<Forward> {
  const { hostname, port } = new URL(target);
  const sockets = new Set<Socket>();
  const server = createServer((client) => {
    const upstream = connect(Number(port), hostname);
    for (const s of [client, upstream]) {
      sockets.add(s);
      s.on('close', () => sockets.delete(s));
      s.on('error', () => (client.destroy(), upstream.destroy()));
    }
    client.pipe(upstream).pipe(client);
  });
  await new Promise<void>((resolve) => server.listen(0, host, resolve));
  return {
    url: `http://${host}:${(server.address() as AddressInfo).port}`,
    close: () => {
      sockets.forEach((s) => s.destroy());
      return new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

let server: FakeProviderServer;
let alias: Forward;
let app: AppPage | undefined;

beforeAll(async () => {
  server = await startFakeProviderServer();
  alias = await forward('127.0.0.2', server.url);
});
afterAll(async () => {
  await alias?.close();
  await server?.close();
});
afterEach(async () => {
  await app?.session.close();
  server.reset();
});

/** A fetch from the page: 'reached' (any response, opaque included) or 'refused'. */
const reach = (page: Page, url: string) =>
  page.evaluate(
    (u) =>
      fetch(u, { mode: 'no-cors' }).then(
        () => 'reached',
        () => 'refused',
      ),
    url,
  );
const policies = (page: Page) =>
  page.evaluate(() => [...document.querySelectorAll<HTMLMetaElement>('meta[http-equiv="Content-Security-Policy"]')].map((m) => m.content));
/** Clicks the button that reloads the page and waits for the new page: the old one shows the same heading. */
async function clickToReload(page: Page, button: Locator): Promise<void> {
  const loaded = page.waitForEvent('load');
  await button.click();
  await loaded;
}
const posts = () => server.requests.filter((r) => r.method === 'POST').length;

test('the built index.html has no inline script, and its policy allows scripts from this origin only', async () => {
  const html = await (await fetch(`${inject('appUrl')}/`)).text();
  const scripts = html.match(/<script\b[^>]*>[\s\S]*?<\/script>/g) ?? [];
  expect(scripts.length).toBeGreaterThan(0);
  for (const s of scripts) expect(s).toMatch(/^<script type="module" crossorigin src="\/assets\/[\w.-]+\.js"><\/script>$/);
  expect(html).not.toMatch(/\son[a-z]+=/i);
  const base = /http-equiv="Content-Security-Policy"\s+content="([^"]+)"/.exec(html)?.[1];
  expect(base).toContain("script-src 'self' 'wasm-unsafe-eval';");
  expect(base).not.toContain('unsafe-inline');
});

test('a new origin is blocked until the reload the page offers; then the worker answers, in the page and in runs', async () => {
  app = await openApp({ hash: '#/workers', allow: [server.url, alias.url] });
  const { page } = app;
  const [base] = await policies(page);
  // The demo pool names no server: the page's own policy is the fixed sources alone.
  expect(await policies(page)).toEqual([base, connectSrcDirective([])]);
  expect(await reach(page, `${server.url}/v1/models`)).toBe('reached'); // 127.0.0.1 is a fixed source
  expect(await reach(page, `${alias.url}/v1/models`)).toBe('refused');
  expect(await app.cspViolations()).toEqual([expect.stringMatching(new RegExp(`^connect-src: ${alias.url}/v1/models `))]);

  await setPool(app, [{ preset: 'Local vLLM', baseUrl: `${alias.url}/v1` }]);
  const reload = page.getByRole('button', { name: `Reload to allow connections to ${alias.url}` });
  await reload.waitFor();
  await mkdir(OUT, { recursive: true });
  await page.screenshot({ path: join(OUT, 'workers-connect-notice-desktop.png'), fullPage: true });
  await page.setViewportSize({ width: 390, height: 844 });
  expect(await scrollsSideways(page)).toBe(false);
  await page.screenshot({ path: join(OUT, 'workers-connect-notice-phone.png'), fullPage: true });
  await page.setViewportSize({ width: 1280, height: 800 });

  // Until the reload, its test call and a run (in the Conductor worker, under the same policy) stay blocked.
  const row = page.getByTestId('worker-row').first();
  await row.getByRole('button', { name: 'Test' }).click();
  await expect.poll(() => row.getByRole('status').textContent(), POLL).toMatch(/^provider\//);
  await page.getByRole('link', { name: 'Ask' }).click();
  await page.getByRole('button', { name: 'Run' }).click();
  await page.getByTestId('episode-saved').waitFor({ timeout: 60_000 });
  expect(posts()).toBe(0);
  // The worker's step says why, not that the server refuses web pages.
  await page.getByText('what each worker was sent and said').click();
  await expect
    .poll(() => page.getByTestId('step-details').first().getByRole('alert').textContent(), POLL)
    .toContain(`This page blocked the call to ${alias.url}:`);

  await page.getByRole('link', { name: 'Workers' }).click();
  await clickToReload(page, reload);
  await page.getByRole('heading', { name: 'Workers', level: 1 }).waitFor();
  expect(await policies(page)).toEqual([base, connectSrcDirective([alias.url])]);
  expect(await page.getByTestId('connect-notice').count()).toBe(0);

  await row.getByRole('button', { name: 'Test' }).click();
  await expect.poll(() => row.getByRole('status').textContent(), POLL).toMatch(/^Answered in /);
  expect(posts()).toBe(1);
  await page.getByRole('link', { name: 'Ask' }).click();
  await page.getByRole('button', { name: 'Run' }).click();
  await page.getByTestId('episode-saved').waitFor({ timeout: 60_000 });
  expect(posts()).toBeGreaterThan(1);
  // Only that origin was added: a third address stays blocked.
  expect(await reach(page, 'http://127.0.0.3:9/x')).toBe('refused');
  expect((await app.cspViolations()).at(-1)).toMatch(/^connect-src: http:\/\/127\.0\.0\.3:9\/x /);
});

test("a Conductor that fails says why where its plan would be; blocked by the page's policy, that a reload allows it", async () => {
  app = await openApp({ allow: [server.url, alias.url] });
  const { page } = app;
  await setPool(app, [{ preset: 'Local vLLM', baseUrl: `${alias.url}/v1` }]);
  await useWorkerConductor(page, 'vLLM');
  await page.getByRole('link', { name: 'Ask' }).click();
  // The Ask page offers the reload too, before any run.
  await page.getByRole('button', { name: `Reload to allow connections to ${alias.url}` }).waitFor();
  await page.getByRole('button', { name: 'Run' }).click();
  await page.getByTestId('episode-saved').waitFor({ timeout: 60_000 });
  const error = page.getByTestId('conductor-error');
  expect(await error.textContent()).toBe(
    `The Conductor failed: This page blocked the call to ${alias.url}: it connects only to the servers it was opened with, and this one was added since. ` +
      'Reload the page to allow it; your pool, settings and episodes are kept.',
  );
  expect(await error.getAttribute('role')).toBe('alert');
  expect(await page.getByTestId('no-answer').textContent()).toBe("No answer: the Conductor's own call failed, so there was no plan (see above).");
  expect(await page.getByTestId('step-details').count()).toBe(0);
  expect(posts()).toBe(0);

  // The stored turn keeps that reason: after the reload the call would go out, but this one was blocked.
  const blocked = await error.textContent();
  await clickToReload(page, page.getByRole('button', { name: `Reload to allow connections to ${alias.url}` }));
  await page.getByRole('heading', { name: 'Ask', level: 1 }).waitFor();
  await expect.poll(() => error.textContent(), POLL).toBe(blocked);

  // After the reload the call goes out; the server's own refusal is what the page shows.
  await page.keyboard.press('Control+k'); // a new conversation: this run's turn alone on the page
  server.script({ status: 404 });
  await page.getByRole('button', { name: 'Run' }).click();
  await page.getByTestId('episode-saved').waitFor({ timeout: 60_000 });
  expect(await error.textContent()).toMatch(new RegExp(`^The Conductor failed: The server at ${alias.url} does not know the model '[^']+' \\(404\\)`));
  expect(posts()).toBe(1);
});

/**
 * The day's spending limit in Chromium: runs over a paid worker (a fake OpenAI-compatible server standing in
 * for the provider) fill the ledger, and once the day's cap is below what was spent a run stops before its
 * call, with status "budget reached"; it still stops after a reload and in a second tab of the same browser.
 */
import { afterAll, afterEach, beforeAll, expect, test } from 'vitest';
import type { Page } from 'playwright-core';
import { startFakeProviderServer, type FakeProviderServer } from '../support/fake-provider-server.ts';
import { ask, openApp, POLL, setPool, type AppPage } from './app-page.ts';

let server: FakeProviderServer;
let app: AppPage | undefined;

beforeAll(async () => {
  // Every call reports 1,000 tokens in and out: $0.02 at $10 per million each way.
  server = await startFakeProviderServer({ fallback: { text: 'It is <answer>4</answer>.', usage: { input: 1000, output: 1000 } } });
});
afterAll(() => server?.close());
afterEach(async () => {
  await app?.session.close();
  app = undefined;
  server.reset();
});

const posts = () => server.requests.filter((r) => r.method === 'POST').length;

/** Runs a question on the Ask page and waits for its episode; returns the page's text once it ended. */
async function runOnce(page: Page, a: AppPage): Promise<string> {
  await ask({ ...a, page }, 'What is 2 + 2?', '4');
  await page.getByTestId('episode-saved').waitFor({ timeout: 60_000 });
  await page.getByText('Steps', { exact: true }).click(); // the step that says why is folded until asked for
  await page.getByTestId('step-details').first().waitFor();
  return page.locator('main').innerText();
}

test("the day's spending limit stops a run, and still does after a reload and in a second tab", async () => {
  app = await openApp({ allow: [server.url] });
  const { page } = app;
  await setPool(app, [{ preset: 'Local vLLM', baseUrl: `${server.url}/v1`, price: { input: 10, output: 10 } }]);

  // No limit yet: the run is paid for and its dollars go into the ledger.
  expect(await runOnce(page, app)).not.toContain('budget reached');
  const paidCalls = posts();
  expect(paidCalls).toBeGreaterThan(0);

  await page.getByRole('navigation', { name: 'Pages' }).getByRole('link', { name: 'Settings' }).click();
  const spent = page.getByTestId('spent-today');
  await expect.poll(() => spent.innerText(), POLL).toBe(`Spent today: $${(paidCalls * 0.02).toFixed(3)}.`);
  // A cap that is not a positive number is refused, and the field shows that none was kept.
  await page.getByLabel('Per day ($)').fill('-5');
  await page.getByLabel('Per day ($)').press('Tab');
  await expect.poll(() => page.getByLabel('Per day ($)').inputValue(), POLL).toBe('');
  await page.getByLabel('Per day ($)').fill('0.01');
  await page.getByLabel('Per day ($)').press('Tab');
  await expect.poll(() => spent.innerText(), POLL).toBe(`Spent today: $${(paidCalls * 0.02).toFixed(3)} of $0.010.`);

  const stopped = async (p: Page) => {
    const text = await runOnce(p, app!);
    expect(text).toContain('budget reached');
    expect(text).toContain("Stopped by today's spending limit of $0.01");
    expect(posts()).toBe(paidCalls);
  };
  await stopped(page);

  await page.reload();
  await page.getByRole('heading', { level: 1 }).first().waitFor();
  await stopped(page);

  const second = await app.session.context.newPage();
  await second.goto(`${app.url}/#/ask`);
  await second.getByRole('heading', { level: 1 }).first().waitFor();
  await stopped(second);

  // The Episodes page tells what the worker spent today.
  await second.getByRole('navigation', { name: 'Pages' }).getByRole('link', { name: 'Episodes' }).click();
  await second.getByTestId('spending-table').locator('summary').click();
  await expect.poll(() => second.getByTestId('spending-table').innerText(), POLL).toContain(`"vLLM"`);
});

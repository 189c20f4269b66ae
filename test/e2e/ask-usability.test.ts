/**
 * The Ask page for someone new, on the keyboard or a screen reader: a title per page, a skip link, Ctrl+Enter
 * runs, focus stays on Run, a live region tells the run's progress and result, each graph step has text; an
 * empty pool says so; a sample's gold answer never grades a question typed over it; and while the Conductor
 * has not written anything yet, the page says it is waiting (a slow first byte from the fake provider server).
 */
import { afterAll, afterEach, beforeAll, expect, test } from 'vitest';
import { startFakeProviderServer, type FakeProviderServer } from '../support/fake-provider-server.ts';
import { exportEpisodes, openApp, openAppWithOneWorker, POLL, setGold, setPool, type AppPage } from './app-page.ts';

const PLAN = 'One step.\nmodel_id = [0]\nsubtasks = ["Answer the question."]\naccess_list = [[]]';

let server: FakeProviderServer;
let app: AppPage | undefined;
beforeAll(async () => {
  server = await startFakeProviderServer();
});
afterEach(async () => {
  await app?.session.close();
  server.reset();
});
afterAll(() => server?.close());

/** Every text the live region takes from now on, in order. */
async function listenToAnnouncer(app: AppPage): Promise<() => Promise<string[]>> {
  await app.page.evaluate(() => {
    const region = document.querySelector('[data-testid="run-announcer"]')!;
    const said: string[] = [];
    (window as unknown as { __said: string[] }).__said = said;
    new MutationObserver(() => said.push(region.textContent ?? '')).observe(region, { childList: true, characterData: true, subtree: true });
  });
  return () => app.page.evaluate(() => (window as unknown as { __said: string[] }).__said.slice());
}

test('each page has its own title, and the skip link moves the focus to the content without leaving the page', async () => {
  app = await openApp();
  const { page } = app;
  expect(await page.title()).toBe('Ask · Baton');
  for (const name of ['Workers', 'Conductor', 'Episodes', 'Settings']) {
    await page.getByRole('navigation', { name: 'Pages' }).getByRole('link', { name }).click();
    await expect.poll(() => page.title(), POLL).toBe(`${name} · Baton`);
  }
  await page.goto(`${app.url}/#/ask`);
  await page.reload(); // a fresh load: the focus starts at the top of the document
  await page.getByRole('heading', { level: 1, name: 'Ask' }).waitFor();
  await page.keyboard.press('Tab');
  expect(await page.evaluate(() => document.activeElement?.textContent)).toBe('Skip to content');
  await page.keyboard.press('Enter');
  expect(await page.evaluate(() => [document.activeElement?.tagName, location.hash])).toEqual(['MAIN', '#/ask']);
  expect(await page.getByRole('heading', { level: 1, name: 'Ask' }).count()).toBe(1);
});

test('Ctrl+Enter runs; a keyboard run keeps the focus on Run; progress and result are announced; each graph step has text', async () => {
  app = await openApp();
  const { page } = app;
  const heard = await listenToAnnouncer(app);
  await page.getByLabel('Question', { exact: true }).fill('What is 17 × 23?');
  await setGold(page, '391');
  await page.getByLabel('Question', { exact: true }).press('Control+Enter');
  await page.getByTestId('episode-saved').waitFor({ timeout: 60_000 });
  const steps = await page.getByTestId('graph-step').count();
  const said = await heard();
  expect(said).toContain(`${steps} of ${steps} steps done.`);
  expect(said.at(-1)).toMatch(/^Run finished: answered, graded (correct|wrong)\.$/);
  expect(await page.getByTestId('run-announcer').getAttribute('role')).toBe('status');
  const texts = await page.getByTestId('graph-steps-text').locator('li').allTextContents();
  expect(texts).toHaveLength(steps);
  expect(texts[0]).toMatch(/^Step 1, .+: .+ Sees only the task\. Done\.$/);

  // A follow-up run from the keyboard: the box was emptied for it, and the focus stays on Run throughout.
  expect(await page.getByLabel('Question', { exact: true }).inputValue()).toBe('');
  await page.getByLabel('Question', { exact: true }).fill('And 17 × 24?');
  const run = page.getByRole('button', { name: 'Run' });
  await run.focus();
  await page.keyboard.press('Enter');
  await page.getByRole('button', { name: 'Running…' }).waitFor();
  expect(await page.evaluate(() => document.activeElement?.textContent)).toBe('Running…');
  await page.getByRole('button', { name: 'Run', exact: true }).waitFor({ timeout: 60_000 });
  expect(await page.evaluate(() => document.activeElement?.textContent)).toBe('Run');
  expect(await page.getByTestId('turn').count()).toBe(2);
  await page.keyboard.press('Enter'); // the focus is where it was, and an empty box is refused
  expect(await page.getByLabel('Question', { exact: true }).evaluate((el: HTMLTextAreaElement) => el.validity.valueMissing)).toBe(true);
  expect(await page.getByRole('button', { name: 'Running…' }).count()).toBe(0);
  expect(app.errors).toEqual([]);
});

test("a sample's gold answer goes when a new question is typed over it; a gold the user typed stays", async () => {
  app = await openApp();
  const { page } = app;
  const question = page.getByLabel('Question', { exact: true });
  const gold = page.getByLabel('Gold answer');
  await page.getByRole('button', { name: /^A train covers 120 km/ }).click();
  await page.getByRole('button', { name: /^Options/ }).click();
  expect(await gold.inputValue()).toBe('80');
  await question.fill('What is the capital of France?');
  expect(await gold.inputValue()).toBe('');
  await page.getByRole('button', { name: 'Run' }).click();
  await page.getByTestId('episode-saved').waitFor({ timeout: 60_000 });
  expect(await page.getByTestId('grade').count()).toBe(0);
  const [line] = (await exportEpisodes(app)).trim().split('\n');
  expect(JSON.parse(line).task).toEqual({ question: 'What is the capital of France?', kind: 'open' });

  await page.goto(`${app.url}/#/ask`);
  await setGold(page, 'Paris');
  await question.fill('And the capital of Italy?');
  expect(await gold.inputValue()).toBe('Paris');
});

test('an empty pool says so on the Ask page, and Run says why it cannot start', async () => {
  app = await openApp();
  const { page } = app;
  await setPool(app, []);
  await page.getByRole('navigation', { name: 'Pages' }).getByRole('link', { name: 'Ask' }).click();
  expect(await page.getByTestId('empty-pool').textContent()).toMatch(/Your pool has no workers[\s\S]*add one on the Workers page/);
  await page.getByRole('button', { name: 'Run' }).click();
  expect(await page.getByRole('alert').textContent()).toBe('The pool has no workers: add one on the Workers page first.');
  expect(await page.getByTestId('run-totals').count()).toBe(0);
});

test('until the Conductor writes its first words, the page says it is waiting, with a clock', async () => {
  app = await openAppWithOneWorker(server.url);
  const { page } = app;
  server.script({ text: PLAN, firstByteDelayMs: 3_000 }, { text: 'It is <answer>4</answer>.' });
  await page.getByRole('navigation', { name: 'Pages' }).getByRole('link', { name: 'Ask' }).click();
  const heard = await listenToAnnouncer(app);
  await page.getByLabel('Question', { exact: true }).fill('What is 2 + 2?');
  await page.getByRole('button', { name: 'Run' }).click();
  const waiting = page.getByTestId('conductor-waiting');
  await expect.poll(() => waiting.textContent().catch(() => ''), POLL).toMatch(/Waiting for the Conductor to start its plan… [1-9] s/);
  expect(await page.getByTestId('conductor-text').count()).toBe(0);
  await page.getByTestId('conductor-text').waitFor({ state: 'attached', timeout: 30_000 });
  expect(await waiting.count()).toBe(0);
  await page.getByTestId('episode-saved').waitFor({ timeout: 30_000 });
  expect((await heard())[0]).toBe('Waiting for the Conductor.');
});

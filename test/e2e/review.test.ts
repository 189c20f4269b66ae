/**
 * What a new user ran into when trying to break the app: a blank question, a recursion count out of range,
 * a worker with no price under a budget, a failed run's empty answer and unknown cost, the question gone
 * after a visit to another page, a reload in the middle of a run, and Episodes with no dataset or date
 * filter. One worker on the fake provider
 * server, picked by the demo Conductor (its random routing only has that one to choose).
 */
import { afterAll, beforeAll, expect, test } from 'vitest';
import { makeEpisodes } from '../support/episode-factory.ts';
import { startFakeProviderServer, type FakeProviderServer } from '../support/fake-provider-server.ts';
import { ask, importEpisodes, openApp, POLL, saveKey, setPool, type AppPage } from './app-page.ts';

const KEY = 'sk-review-good-key-1234';

let server: FakeProviderServer;
let app: AppPage;

beforeAll(async () => {
  server = await startFakeProviderServer({ acceptKeys: [KEY], fallback: { text: '<answer>391</answer>', usage: { input: 1000, output: 100 } } });
  app = await openApp({ allow: [server.url] });
});
afterAll(async () => {
  await app?.session.close();
  await server?.close();
});

const nav = (name: string) => app.page.getByRole('navigation', { name: 'Pages' }).getByRole('link', { name }).click();

test('a blank question says what is missing, and a recursion count out of range is clamped instead of looping', async () => {
  const { page } = app;
  await page.getByLabel('Question', { exact: true }).fill('   ');
  await page.getByRole('button', { name: 'Run' }).click();
  expect(await page.getByRole('alert').textContent()).toBe('Type a question first.');
  expect(await page.getByRole('button', { name: 'Run' }).isEnabled()).toBe(true);
  expect(await page.getByTestId('run-totals').count()).toBe(0);

  await page.getByRole('button', { name: /^Options/ }).click();
  const rounds = page.getByLabel('Recursion rounds');
  await rounds.fill('9');
  await rounds.press('Tab');
  expect(await rounds.inputValue()).toBe('3');
  expect(JSON.parse((await page.evaluate(() => localStorage.getItem('baton.settings'))) ?? '{}').recursion).toBe(3);
  await rounds.fill('0');
  await rounds.press('Tab');
  expect(app.errors).toEqual([]);
});

test('a worker with no price is flagged on its row while runs keep to a budget', async () => {
  await setPool(app, [{ preset: 'OpenRouter', baseUrl: `${server.url}/v1` }]);
  const row = app.page.getByTestId('worker-row').first();
  expect(await row.getByTestId('no-price').textContent()).toMatch(/No price set: runs keep to a budget \(\$0\.500/);
  await setPool(app, [{ preset: 'OpenRouter', baseUrl: `${server.url}/v1`, price: { input: 0, output: 0 } }]);
  expect(await row.getByTestId('no-price').count()).toBe(0);
});

test('a failed run says why it has no answer; Episodes keeps the known dollars; Ask keeps the conversation', async () => {
  const { page } = app;
  await setPool(app, [{ preset: 'GPT-5', baseUrl: `${server.url}/v1`, price: { input: 1, output: 10 } }]);
  await saveKey(page, `openai@${server.url}`, KEY);
  await ask(app, 'What is 17 × 23?', '391');
  await page.getByTestId('episode-saved').waitFor({ timeout: POLL.timeout });
  expect(await page.getByTestId('final-answer').textContent()).toContain('391');

  // Every call of this run is refused, whatever shape the random plan takes (at most 5 steps).
  server.script(...Array.from({ length: 5 }, () => ({ status: 401 })));
  await ask(app, 'A question whose first call is refused?', '391');
  await page.getByTestId('episode-saved').waitFor({ timeout: POLL.timeout });
  expect(await page.getByTestId('run-status').textContent()).toBe('a call failed');
  expect(await page.getByTestId('no-answer').textContent()).toBe('No answer: a worker call failed (see the step below).');
  expect(await page.getByTestId('final-answer').count()).toBe(0);
  expect(await page.getByText('$? means unknown').count()).toBe(1);

  await nav('Episodes');
  const stats = page.getByTestId('episode-stats');
  await expect.poll(() => stats.textContent(), POLL).toMatch(/2 episodes/);
  expect((await stats.textContent())?.replace(/\s+/g, ' ')).toMatch(/ \$0\.00\d+ spent, plus 1 run of unknown cost/);
  expect(await page.getByTestId('episode-list').getByRole('link').first().locator('.tag').textContent()).toBe('a call failed');

  await nav('Ask');
  await expect.poll(() => page.getByTestId('turn-question').allInnerTexts(), POLL).toEqual(['A question whose first call is refused?']);
});

test('after a reload in the middle of a run, the Ask page says so and links the episode it left', async () => {
  const { page } = app;
  server.reset();
  server.script({ firstByteDelayMs: 20_000 });
  await ask(app, 'A question cut off by a reload?');
  // The random plan may hold parallel steps: any one waiting on the slow reply means the run is in flight.
  await expect.poll(() => server.requests.some((r) => r.method === 'POST' && r.outcome === 'pending'), POLL).toBe(true);
  await page.reload();
  const note = page.getByTestId('interrupted-note');
  await note.waitFor({ timeout: POLL.timeout });
  await note.getByRole('link').click();
  const detail = page.getByTestId('episode-detail');
  await detail.getByRole('heading', { name: 'A question cut off by a reload?' }).waitFor({ timeout: POLL.timeout });
  expect(await detail.getByRole('alert').textContent()).toMatch(/^Interrupted: /);
  await nav('Ask');
  await expect.poll(() => page.getByTestId('interrupted-note').count(), POLL).toBe(1);
  expect(app.errors.filter((e) => !e.includes('401'))).toEqual([]);
});

test('Episodes filter by dataset and by a range of days, the last day included, and Export says it is filtered', async () => {
  const { page } = app;
  const episodes = makeEpisodes(80, 11, { days: 20 });
  expect(await importEpisodes(app, 'spread.jsonl', episodes.map((e) => JSON.stringify(e)).join('\n'))).toMatch(/Imported 80/);
  const stats = page.getByTestId('episode-stats');
  const count = async () => Number(/(\d+) episodes?/.exec((await stats.textContent()) ?? '')?.[1]);
  const settle = (n: number) => expect.poll(count, POLL).toBe(n);

  const dataset = episodes[0].task.dataset ?? '';
  await page.getByLabel('Dataset').fill(dataset);
  await page.getByLabel('Dataset').press('Enter');
  await settle(episodes.filter((e) => e.task.dataset === dataset).length);
  await page.getByLabel('Dataset').fill('');
  await page.getByLabel('Dataset').press('Enter');

  // The browser reads the days in its time zone, as this process does (same machine).
  const day = (ms: number) => {
    const d = new Date(ms);
    return `${d.getFullYear()}-${String(d.getMonth() + 1).padStart(2, '0')}-${String(d.getDate()).padStart(2, '0')}`;
  };
  const from = day(Date.UTC(2026, 0, 5, 12));
  const to = day(Date.UTC(2026, 0, 9, 12));
  const inRange = episodes.filter((e) => {
    const d = day(Date.parse(e.createdAt));
    return d >= from && d <= to;
  }).length;
  expect(inRange).toBeGreaterThan(0);
  await page.getByLabel('From', { exact: true }).fill(from);
  await page.getByLabel('To', { exact: true }).fill(to);
  await settle(inRange);
  expect(await page.getByRole('button', { name: /^Export JSONL/ }).textContent()).toBe('Export JSONL (filtered)');
});

/** Episodes are stored in IndexedDB: listed after a run, kept across a reload, replayable, importable. */
import { join } from 'node:path';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { episodeLines, exportEpisodes, openApp, POLL, type AppPage } from './app-page.ts';

let app: AppPage;
beforeAll(async () => {
  app = await openApp();
});
afterAll(() => app?.session.close());

test('a finished run is listed, survives a reload and replays step by step', async () => {
  const { page } = app;
  await page.getByRole('button', { name: 'Run' }).click();
  await page.getByTestId('episode-saved').waitFor({ timeout: 60_000 });
  const question = await page.getByLabel('Question').inputValue();

  await page.reload();
  await page.getByRole('link', { name: 'Episodes' }).click();
  const list = page.getByTestId('episode-list');
  await list.getByRole('link').first().waitFor();
  expect(await list.getByRole('link').count()).toBe(1);
  expect(await list.textContent()).toContain(question);

  await list.getByRole('link').first().click();
  const detail = page.getByTestId('episode-detail');
  await detail.waitFor();
  const steps = await detail.getByTestId('step-details').count();
  expect(steps).toBeGreaterThanOrEqual(1);
  expect(await detail.getByTestId('step-details').first().textContent()).toContain('What the worker saw');
  await detail.getByRole('button', { name: 'Replay step by step' }).click();
  expect(await detail.getByTestId('step-details').count()).toBe(0);
  await expect.poll(() => detail.getByTestId('step-details').count(), POLL).toBe(steps);
  await page.screenshot({ path: join(import.meta.dirname, '__screenshots__', 'episode-detail-desktop.png'), fullPage: true });
});

test('importing JSONL stores good lines, skips duplicates and names bad lines', async () => {
  const { page } = app;
  await page.goto(`${app.url}/#/episodes`);
  const list = page.getByTestId('episode-list');
  await list.getByRole('link').first().waitFor();
  const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: 'Export JSONL' }).click()]);
  const stream = await download.createReadStream();
  let exported = '';
  for await (const chunk of stream) exported += chunk;
  const episode = JSON.parse(exported.trim().split('\n')[0]);
  const copy = { ...episode, id: `${episode.id}-copy` };
  const file = [JSON.stringify(episode), JSON.stringify(copy), '{not json', JSON.stringify({ id: 'x' })].join('\n');
  await page.locator('input[type=file]').setInputFiles({ name: 'episodes.jsonl', mimeType: 'application/x-ndjson', buffer: Buffer.from(file) });
  const report = page.getByTestId('import-report');
  await report.waitFor();
  expect(await report.textContent()).toMatch(/Imported 1, skipped 1 already stored, 2 bad line/);
  expect(await report.textContent()).toContain('line 3');
  expect(await report.textContent()).toContain('line 4');
  await expect.poll(() => list.getByRole('link').count(), POLL).toBe(2);
});

test('the list pages through many episodes, newest first, and filters by grade', async () => {
  const { page } = app;
  await page.goto(`${app.url}/#/episodes`);
  const list = page.getByTestId('episode-list');
  await list.getByRole('link').first().waitFor();
  const before = await list.getByRole('link').count();
  const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: 'Export JSONL' }).click()]);
  let exported = '';
  for await (const chunk of await download.createReadStream()) exported += chunk;
  const base = JSON.parse(exported.trim().split('\n')[0]);
  const copies = Array.from({ length: 30 }, (_, i) =>
    JSON.stringify({ ...base, id: `paged-${i}`, createdAt: new Date(Date.UTC(2030, 0, 1, 0, i)).toISOString(), task: { ...base.task, question: `copy ${i}` } }),
  );
  await page.locator('input[type=file]').setInputFiles({ name: 'many.jsonl', mimeType: 'application/x-ndjson', buffer: Buffer.from(copies.join('\n')) });
  await expect.poll(() => page.getByTestId('import-report').textContent(), POLL).toMatch(/Imported 30/);
  await expect.poll(() => list.getByRole('link').count(), POLL).toBe(20);
  expect(await list.getByRole('link').first().textContent()).toContain('copy 29');
  await page.getByRole('button', { name: 'Load more' }).click();
  await expect.poll(() => list.getByRole('link').count(), POLL).toBe(before + 30);
  expect(await page.getByRole('button', { name: 'Load more' }).count()).toBe(0);

  const graded = base.reward.correct ? 'wrong' : 'right';
  await page.getByLabel('Graded').selectOption(graded);
  await expect.poll(() => page.getByTestId('episode-stats').textContent(), POLL).toMatch(/^\s*0 episodes/);
});

test('a deleted episode can be put back exactly as it was', async () => {
  const { page } = app;
  await page.goto(`${app.url}/#/ask`);
  await page.getByRole('button', { name: 'Run' }).click();
  await page.getByTestId('episode-saved').waitFor({ timeout: 60_000 });
  await page.goto(`${app.url}/#/episodes`);
  const list = page.getByTestId('episode-list');
  await list.getByRole('link').first().waitFor();
  const before = await exportEpisodes(app);
  const stored = () => exportEpisodes(app).then((text) => episodeLines(text).length);
  const total = await stored();
  const newest = (await list.getByRole('link').first().getAttribute('href'))!;
  const listed = () => list.locator(`a[href="${newest}"]`).count();

  // From the detail page: back on the list, the episode is gone and an Undo is offered.
  await list.getByRole('link').first().click();
  await page.getByTestId('episode-detail').getByRole('button', { name: 'Delete' }).click();
  await page.getByTestId('episode-detail').getByRole('button', { name: 'Delete it' }).click();
  await expect.poll(listed, POLL).toBe(0);
  expect(await stored()).toBe(total - 1);
  const notice = page.getByRole('status').filter({ hasText: 'Deleted' });
  await notice.getByRole('button', { name: 'Undo' }).click();
  await expect.poll(listed, POLL).toBe(1);
  expect(await notice.count()).toBe(0);
  expect(await exportEpisodes(app)).toBe(before);

  // From the list itself; not undone, the delete survives a reload.
  await list.getByRole('button', { name: 'Delete episode' }).first().click();
  await list.getByRole('button', { name: 'Delete it' }).click();
  await expect.poll(listed, POLL).toBe(0);
  await page.reload();
  await list.getByRole('link').first().waitFor();
  expect(await listed()).toBe(0);
  expect(await stored()).toBe(total - 1);
});

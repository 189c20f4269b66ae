/**
 * The Evaluate page in the built app (headless Chromium), with the demo pool's simulated workers: a
 * GSM8K evaluation runs in the evaluator web worker with live progress, stops midway keeping what was
 * done, resumes and finishes; its table's accuracies are those its stored episodes give (recomputed here
 * from IndexedDB); it is listed after a reload, and compared side by side with a second one. A user's
 * JSONL with a bad line: the line is reported by number, stops the start, and is listed when left out.
 */
import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, expect, test } from 'vitest';
import { openApp, POLL, scrollsSideways, type AppPage } from './app-page.ts';
import { accuracyOf, chooseMethods, doneCount, evalRuns, RUN, runEvaluation, status } from './evaluations.ts';

const OUT = join(import.meta.dirname, '__screenshots__');

let app: AppPage | undefined;
afterEach(() => app?.session.close());

test('run, stop midway, resume, check the table against the episodes, reload, compare two', { timeout: 180_000 }, async () => {
  app = await openApp({ hash: '#/evaluate' });
  const { page } = app;
  await page.getByRole('heading', { level: 1, name: 'Evaluate' }).waitFor();

  const first = await runEvaluation(page, { limit: '4', methods: ['single:sim-euler', 'random'], concurrency: '1' });
  await expect.poll(() => status(page), POLL).toBe('Running');
  // The page answers while the worker evaluates: another page opens at once, and back to the same run.
  await page.getByRole('navigation', { name: 'Pages' }).getByRole('link', { name: 'Episodes' }).click();
  await page.getByRole('heading', { level: 1, name: 'Episodes' }).waitFor({ timeout: 5_000 });
  await page.getByRole('navigation', { name: 'Pages' }).getByRole('link', { name: 'Evaluate' }).click();
  await expect.poll(() => page.getByTestId('eval-progress').getAttribute('data-eval-id'), POLL).toBe(first);
  await expect.poll(() => doneCount(page), RUN).toBeGreaterThanOrEqual(2);
  expect(await page.getByTestId('eval-done').textContent()).toMatch(/ of 8 runs$/);
  expect(await page.getByTestId('eval-accuracy').textContent()).toMatch(/^\d\.\d{3} \(\d of \d graded\)$/);
  await page.getByRole('button', { name: 'Stop', exact: true }).click();
  await expect.poll(() => status(page), RUN).toBe('Stopped');
  const atStop = await doneCount(page);
  expect(atStop).toBeLessThan(8);
  const row = page.locator(`[data-testid=evaluation-row][data-eval-id="${first}"]`);
  expect(await row.getByTestId('evaluation-status').textContent()).toBe('Stopped');
  // What was done is kept: the report of the finished runs, and their episodes.
  expect((await evalRuns(page, first)).length).toBe(atStop);
  await page.getByTestId('report-table').waitFor();

  await row.getByRole('button', { name: 'Resume' }).click();
  await expect.poll(() => status(page), RUN).toBe('Done');
  expect(await page.getByTestId('eval-done').textContent()).toBe('8 of 8 runs');
  const runs = await evalRuns(page, first);
  expect(runs.length).toBe(8);
  const table = page.locator(`[data-testid=evaluation-report][data-eval-id="${first}"] [data-testid=report-table]`);
  for (const method of ['single:sim-euler', 'random']) {
    const mine = runs.filter((r) => r.method === method);
    expect(new Set(mine.map((r) => r.item)).size).toBe(4);
    expect(await table.locator(`tr[data-method="${method}"] [data-testid=accuracy]`).textContent()).toBe(accuracyOf(mine));
  }
  await page.getByTestId('report-plot').locator('svg').waitFor();
  const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: 'Download report JSON' }).click()]);
  let json = '';
  for await (const chunk of await download.createReadStream()) json += chunk;
  expect(JSON.parse(json).methods.map((m: { method: string; runs: number }) => [m.method, m.runs])).toEqual([
    ['single:sim-euler', 4],
    ['random', 4],
  ]);

  await page.reload();
  await page.getByRole('heading', { level: 1, name: 'Evaluate' }).waitFor();
  await expect.poll(() => row.getByTestId('evaluation-status').textContent(), POLL).toBe('Done');

  const second = await runEvaluation(page, { limit: '2', offset: '4', methods: ['single:sim-euler', 'single:sim-sage'], concurrency: '4' });
  expect(second).not.toBe(first);
  await expect.poll(() => status(page), RUN).toBe('Done');
  await page.getByLabel(`Compare ${first}`).check();
  await page.getByLabel(`Compare ${second}`).check();
  const compare = page.getByTestId('compare-table');
  await compare.waitFor();
  expect(await compare.locator('tbody th').allTextContents()).toEqual(['single:sim-euler', 'random', 'single:sim-sage']);
  const cells = async (method: string) => compare.locator(`tr[data-method="${method}"] td[data-eval]`).allTextContents();
  expect((await cells('single:sim-euler')).map((t) => /^\d\.\d{3} ± /.test(t))).toEqual([true, true]);
  expect((await cells('random'))[1]).toBe('–');
  expect((await cells('single:sim-sage'))[0]).toBe('–');
  expect((await cells('single:sim-euler'))[0]).toBe(accuracyOf(runs.filter((r) => r.method === 'single:sim-euler')));

  // For a person to look at, at a laptop's size and a phone's; the phone's must not scroll sideways.
  await page.getByTestId('evaluation-row').last().getByRole('button', { name: 'Open' }).click();
  await mkdir(OUT, { recursive: true });
  await page.screenshot({ path: join(OUT, 'evaluate-run-desktop.png'), fullPage: true });
  await page.setViewportSize({ width: 390, height: 844 });
  await page.screenshot({ path: join(OUT, 'evaluate-run-phone.png'), fullPage: true });
  expect(await scrollsSideways(page)).toBe(false);
  expect(app.errors).toEqual([]);
  expect(await app.cspViolations()).toEqual([]);
});

test("a user's JSONL: the bad line is reported by its number, stops the start, and is listed when left out", { timeout: 120_000 }, async () => {
  app = await openApp({ hash: '#/evaluate' });
  const { page } = app;
  await page.getByRole('heading', { level: 1, name: 'Evaluate' }).waitFor();
  await page.getByLabel('Your file').check();
  const jsonl = ['{"question":"What is 1 + 1?","answer":"2","id":"a"}', '{"question": "cut here', '{"question":"What is 2 + 5?","answer":"7","id":"b"}'].join(
    '\n',
  );
  await page.getByLabel(/^File \(JSONL/).setInputFiles({ name: 'mine.jsonl', mimeType: 'application/x-ndjson', buffer: Buffer.from(jsonl) });
  await expect.poll(() => page.getByTestId('data-preview').textContent(), POLL).toMatch(/^2 items; 1 bad row/);
  expect(await page.getByTestId('bad-rows').locator('li').allTextContents()).toEqual([expect.stringMatching(/^line 2: not valid JSON/)]);

  await chooseMethods(page, ['single:sim-euler']);
  await page.getByRole('button', { name: 'Start', exact: true }).click();
  await expect
    .poll(() => page.getByTestId('eval-error').textContent(), POLL)
    .toMatch(/mine\.jsonl: 1 row cannot be used: line 2: not valid JSON.*Leave bad rows out/);
  expect(await page.getByTestId('evaluation-row').count()).toBe(0);

  await page.getByLabel('Leave bad rows out').check();
  await page.getByRole('button', { name: 'Start', exact: true }).click();
  await expect.poll(() => status(page), RUN).toBe('Done');
  expect(await page.getByTestId('eval-done').textContent()).toBe('2 of 2 runs');
  const left = page.getByTestId('left-out-rows');
  await left.locator('summary').click();
  expect(await left.locator('li').allTextContents()).toEqual([expect.stringMatching(/^line 2: not valid JSON/)]);
  expect(app.errors).toEqual([]);
});

test("HumanEval's code is graded in the page's Python sandbox", { timeout: 120_000 }, async () => {
  app = await openApp({ hash: '#/evaluate' });
  const { page } = app;
  await page.getByRole('heading', { level: 1, name: 'Evaluate' }).waitFor();
  await page.getByLabel('Data set').selectOption('humaneval');
  await runEvaluation(page, { limit: '1', methods: ['single:sim-euler'], concurrency: '1' });
  await expect.poll(() => status(page), { timeout: 90_000, interval: 250 }).toBe('Done');
  // Graded: without the sandbox a code item has no grade, and "0 graded" would show as "–".
  expect(await page.getByTestId('eval-accuracy').textContent()).toMatch(/^\d\.\d{3} \([01] of 1 graded\)$/);
  expect(app.errors).toEqual([]);
  expect(await app.cspViolations()).toEqual([]);
});

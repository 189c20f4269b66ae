/**
 * The Evaluate page with a Conductor that runs in the tab, in the built app (headless Chromium, WebGPU on
 * SwiftShader): the demo Conductor beside a single worker of the demo pool on a few GSM8K items. The demo
 * model loads in the evaluator worker with its progress shown, its runs are the engine's, the report's
 * accuracies are those its stored episodes give, and the Episodes page, reached by the evaluation's link
 * and by picking the evaluation from its list, shows exactly that evaluation's episodes. Without WebGPU the
 * demo Conductor is left out with one message that says why, and the other method's runs finish.
 */
import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, expect, test } from 'vitest';
import type { Page } from 'playwright-core';
import { CHROMIUM_FLAGS } from '../support/browser.ts';
import { openApp, POLL, type AppPage } from './app-page.ts';
import { accuracyOf, evalRuns, RUN, runEvaluation, status } from './evaluations.ts';

let app: AppPage | undefined;
afterEach(() => app?.session.close());

const DEMO = 'conductor:engine:demo';
const OUT = join(import.meta.dirname, '__screenshots__');

/** For a person to look at. */
async function screenshot(page: Page, name: string): Promise<void> {
  await mkdir(OUT, { recursive: true });
  await page.screenshot({ path: join(OUT, `${name}.png`), fullPage: true });
}

/** The ids of the episodes the Episodes page lists (each links to #/episodes/<id>), sorted. */
async function listedIds(page: Page): Promise<string[]> {
  const hrefs = await page
    .getByTestId('episode-list')
    .locator('a[href^="#/episodes/"]')
    .evaluateAll((links) => links.map((a) => a.getAttribute('href')!));
  return hrefs.map((h) => decodeURIComponent(h.slice('#/episodes/'.length))).sort();
}

/** The status once the evaluation has ended, with its error if one stopped it (so a failure says why). */
async function ended(page: Page): Promise<string> {
  const now = await status(page);
  if (now === 'Stopped by an error') return `${now}: ${await page.getByTestId('eval-error').textContent()}`;
  return now === 'Done' ? now : 'running';
}

test('the demo Conductor beside a single worker: the report is what its episodes say, the Episodes page lists exactly them', { timeout: 400_000 }, async () => {
  app = await openApp({ hash: '#/evaluate' });
  const { page } = app;
  await page.getByRole('heading', { level: 1, name: 'Evaluate' }).waitFor();
  expect(await page.locator(`fieldset.methods input[value="${DEMO}"]`).isChecked()).toBe(true);

  // Another evaluation first, whose episodes the filter must leave out.
  const other = await runEvaluation(page, { limit: '2', methods: ['single:sim-euler'], concurrency: '2' });
  await expect.poll(() => ended(page), RUN).toBe('Done');

  // Every phase line shown, so the model load's progress can be checked after it has passed.
  await page.evaluate(() => {
    const seen: string[] = [];
    (window as unknown as { __phases: string[] }).__phases = seen;
    new MutationObserver(() => {
      const text = document.querySelector('[data-testid=eval-phase]')?.textContent;
      if (text && seen.at(-1) !== text) seen.push(text);
    }).observe(document.body, { subtree: true, childList: true, characterData: true });
  });
  const id = await runEvaluation(page, { limit: '3', methods: [DEMO, 'single:sim-sage'], concurrency: '2' });
  await expect.poll(() => ended(page), { timeout: 300_000, interval: 500 }).toBe('Done');
  expect(await page.getByTestId('eval-done').textContent()).toBe('6 of 6 runs');
  const phases = await page.evaluate(() => (window as unknown as { __phases: string[] }).__phases);
  expect(
    phases.some((p) => /^Loading demo-conductor .*: (downloading|copying to the GPU), [\d.]+ of [\d.]+ (MB|tensors)…$/.test(p)),
    phases.join('\n'),
  ).toBe(true);

  const runs = await evalRuns(page, id);
  expect(runs).toHaveLength(6);
  const demo = runs.filter((r) => r.method === DEMO);
  expect(new Set(demo.map((r) => r.item)).size).toBe(3);
  // The demo model ran on the engine in the tab (not random routing in its place), and its plans parsed.
  expect(demo.map((r) => [r.conductor.runtime, r.parseError])).toEqual(Array(3).fill(['engine', undefined]));
  expect(demo.every((r) => /demo-conductor/.test(r.conductor.model))).toBe(true);
  const table = page.locator(`[data-testid=evaluation-report][data-eval-id="${id}"] [data-testid=report-table]`);
  for (const method of [DEMO, 'single:sim-sage']) {
    expect(await table.locator(`tr[data-method="${method}"] [data-testid=accuracy]`).textContent()).toBe(accuracyOf(runs.filter((r) => r.method === method)));
  }
  // Its models were loaded in the evaluator worker, beside which no Conductor worker was started.
  expect((await Promise.all(page.workers().map((w) => w.evaluate(() => self.name)))).filter((n) => n === 'conductor')).toEqual([]);

  // The evaluation's link opens the Episodes page filtered by it: exactly its episodes.
  await page.locator(`[data-testid=evaluation-row][data-eval-id="${id}"]`).getByRole('link', { name: 'Episodes' }).click();
  await page.getByRole('heading', { level: 1, name: 'Episodes' }).waitFor();
  expect(new URL(page.url()).hash).toBe(`#/episodes?evaluation=${id}`);
  await expect.poll(() => listedIds(page), POLL).toEqual(runs.map((r) => r.id).sort());
  expect(await page.getByTestId('episode-stats').textContent()).toMatch(/^\s*6 episodes/);
  const select = page.getByLabel('Evaluation');
  await expect.poll(() => select.inputValue(), POLL).toBe(id);
  await screenshot(page, 'episodes-by-evaluation-desktop');

  // Picked from the stored evaluations: the other one's episodes; then any evaluation: both.
  await select.selectOption(other);
  const otherIds = (await evalRuns(page, other)).map((r) => r.id).sort();
  expect(otherIds).toHaveLength(2);
  await expect.poll(() => listedIds(page), POLL).toEqual(otherIds);
  expect(new URL(page.url()).hash).toBe(`#/episodes?evaluation=${other}`);
  await select.selectOption('');
  await expect.poll(() => listedIds(page), POLL).toEqual([...otherIds, ...runs.map((r) => r.id)].sort());
  expect(app.errors).toEqual([]);
  expect(await app.cspViolations()).toEqual([]);
});

test(
  'without WebGPU: the demo Conductor is left out with its reason, the single worker runs, the evaluation can be resumed',
  { timeout: 120_000 },
  async () => {
    app = await openApp({ hash: '#/evaluate', browserArgs: CHROMIUM_FLAGS.filter((f) => !f.includes('webgpu')) });
    const { page } = app;
    await page.getByRole('heading', { level: 1, name: 'Evaluate' }).waitFor();
    const id = await runEvaluation(page, { limit: '2', methods: [DEMO, 'single:sim-euler'], concurrency: '2' });
    await expect.poll(() => ended(page), RUN).toMatch(/^Stopped by an error/);
    expect(await page.getByTestId('eval-error').textContent()).toBe(
      `${DEMO} cannot run in this tab: This browser has WebGPU but found no usable graphics adapter (blocked, or drivers too old). The other methods ran; Resume tries again.`,
    );
    expect(await page.getByTestId('eval-done').textContent()).toBe('2 of 4 runs');
    const runs = await evalRuns(page, id);
    expect(runs.map((r) => r.method)).toEqual(['single:sim-euler', 'single:sim-euler']);
    const row = page.locator(`[data-testid=evaluation-row][data-eval-id="${id}"]`);
    await expect.poll(() => row.getByTestId('evaluation-status').textContent(), POLL).toBe('Failed');
    expect(await row.getByRole('button', { name: 'Resume' }).isEnabled()).toBe(true);
    const table = page.locator(`[data-testid=evaluation-report][data-eval-id="${id}"] [data-testid=report-table]`);
    expect(await table.locator('tr[data-method="single:sim-euler"] [data-testid=accuracy]').textContent()).toBe(accuracyOf(runs));
    await screenshot(page, 'evaluate-no-webgpu-desktop');
    expect(app.errors).toEqual([]);
  },
);

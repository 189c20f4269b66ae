/**
 * The Evaluate page as a user drives it, for the e2e tests: methods ticked, the form filled, Start pressed;
 * and an evaluation's runs read straight from the app's IndexedDB, to check the page against.
 */
import { expect } from 'vitest';
import type { Page } from 'playwright-core';
import { storedEpisodes } from './app-page.ts';

/** Simulated workers answer in about a second: a run of a few calls takes seconds. */
export const RUN = { timeout: 60_000, interval: 200 };

export async function chooseMethods(page: Page, methods: string[]): Promise<void> {
  const boxes = page.locator('fieldset.methods input[type=checkbox]');
  for (const box of await boxes.all()) {
    const value = await box.getAttribute('value');
    await box.setChecked(methods.includes(value ?? ''));
  }
}

const field = (page: Page, label: string) => page.getByLabel(new RegExp(`^${label}\\b`));
export const doneCount = async (page: Page) =>
  Number(
    /^(\d+) of/.exec(
      (await page
        .getByTestId('eval-done')
        .textContent()
        .catch(() => '')) ?? '',
    )?.[1] ?? -1,
  );
export const status = (page: Page) => page.getByTestId('eval-status').textContent();

export interface EvalRun {
  id: string;
  method: string;
  item: string;
  correct: boolean | undefined;
  conductor: { runtime: string; model: string };
  parseError?: string;
}

/** The stored episodes of evaluation `id`. */
export async function evalRuns(page: Page, id: string): Promise<EvalRun[]> {
  type Stored = { id: string; tags: string[]; reward?: { correct: boolean }; conductor: { runtime: string; model: string }; parseError?: string };
  const tag = (tags: string[], name: string) => tags.find((t) => t.startsWith(`${name}:`))?.slice(name.length + 1);
  return (await storedEpisodes<Stored>(page))
    .filter((e) => tag(e.tags, 'eval') === id)
    .map((e) => ({
      id: e.id,
      method: tag(e.tags, 'method')!,
      item: tag(e.tags, 'item')!,
      correct: e.reward?.correct,
      conductor: { runtime: e.conductor.runtime, model: e.conductor.model },
      ...(e.parseError === undefined ? {} : { parseError: e.parseError }),
    }));
}

/** Accuracy over items with its standard error, written out here from the episodes (one repeat: an item is right or not). */
export function accuracyOf(runs: { item: string; correct: boolean | undefined }[]): string {
  const xs = runs.filter((r) => r.correct !== undefined).map((r) => (r.correct ? 1 : 0));
  const p = xs.reduce((a: number, b) => a + b, 0) / xs.length;
  const se = Math.sqrt(xs.reduce((s: number, x) => s + (x - p) ** 2, 0) / (xs.length - 1) / xs.length);
  return `${p.toFixed(3)} ± ${se.toFixed(3)}`;
}

/** Fills the form, presses Start and returns the new evaluation's id once it runs (an error's text fails the test). */
export async function runEvaluation(page: Page, options: { limit: string; offset?: string; methods: string[]; concurrency: string }): Promise<string> {
  const progress = page.getByTestId('eval-progress');
  const previous = (await progress.count()) > 0 ? await progress.getAttribute('data-eval-id') : null;
  await field(page, 'Limit').fill(options.limit);
  await field(page, 'Offset').fill(options.offset ?? '0');
  await field(page, 'Concurrency').fill(options.concurrency);
  await chooseMethods(page, options.methods);
  await page.getByRole('button', { name: 'Start', exact: true }).click();
  const started = async () => {
    const error = page.getByTestId('eval-error');
    if ((await error.count()) > 0) return `error: ${await error.textContent()}`;
    const id = (await progress.count()) > 0 ? await progress.getAttribute('data-eval-id') : null;
    return id !== null && id !== previous ? 'started' : 'waiting';
  };
  await expect.poll(started, RUN).toBe('started');
  return (await progress.getAttribute('data-eval-id'))!;
}

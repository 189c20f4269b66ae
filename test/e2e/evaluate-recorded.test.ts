/**
 * The Evaluate page on a recorded pool in the built app (headless Chromium): RouterBench's four-model pool
 * replays its recorded answers on a few held-out questions, split by the seed. Its data is fetched only once
 * the pool is chosen; the single models, the oracle, the best per kind in hindsight, random routing and a
 * Conductor's plan run in the evaluator worker; and the report's figures (accuracy, dollars, the place
 * against the single models' hull) are those `baton eval` computes here for the same settings.
 */
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, expect, test } from 'vitest';
import { accuracyText, REPORT_COLUMNS } from '../../src/app/pages/evaluate/report-cells.ts';
import { hullPlace, type EvalReport } from '../../src/core/bench/index.ts';
import { main } from '../../src/node/main.ts';
import { recordingIo } from '../support/cli-io.ts';
import { openApp, POLL, type AppPage } from './app-page.ts';
import { RUN, runEvaluation, status } from './evaluations.ts';

let app: AppPage | undefined;
let dir: string | undefined;
afterEach(async () => {
  await app?.session.close();
  if (dir) await rm(dir, { recursive: true, force: true });
});

const SINGLES = ['gpt-4-1106-preview', 'gpt-3.5-turbo-1106', 'yi-34b-chat', 'mistral-7b-chat'].map((w) => `single:${w}`);
/** A Conductor's completion: the cheapest model answers, GPT-3.5 checks it with its answer in view. */
const PLAN =
  'Cheap first, then a check.\nmodel_id = [3, 1]\nsubtasks = ["Answer the question.", "Check the answer and give the final one."]\naccess_list = [[], "all"]';
const CONDUCTOR = 'conductor:fixed:plan.txt';
const TICKED = [...SINGLES, 'oracle', 'hindsight', 'random'];
const SEED = '3';
const LIMIT = '6';

/** Every figure of a row but the latency, which is the tab's own. */
const FIGURES = REPORT_COLUMNS.map((c, i) => ({ ...c, i })).filter((c) => !c.title.startsWith('Latency'));

test("routerbench-4's held-out questions: the page's report is the one baton eval computes", { timeout: 240_000 }, async () => {
  app = await openApp({ hash: '#/evaluate' });
  const { page } = app;
  await page.getByRole('heading', { level: 1, name: 'Evaluate' }).waitFor();
  // What the page and its web workers have fetched of RouterBench's records (their resource timings).
  const recordedFetched = async (): Promise<string[]> => {
    const timings = () => performance.getEntriesByType('resource').map((e) => e.name);
    const names = await Promise.all([page.evaluate(timings), ...page.workers().map((w) => w.evaluate(timings).catch(() => [] as string[]))]);
    return names.flat().filter((u) => /routerbench|arc-challenge|winogrande|mbpp/.test(u));
  };

  await page.getByLabel('Seed', { exact: true }).fill(SEED);
  // Nothing of the recorded answers loads before the pool is chosen.
  await page.getByLabel('Built-in set').check();
  expect(await recordedFetched()).toEqual([]);
  await page.getByLabel('Recorded answers of real models').check();
  expect(await page.getByLabel('Recorded pool').inputValue()).toBe('routerbench-4');
  const methodBoxes = page.locator('fieldset.methods input[type=checkbox]');
  const offered = async () => {
    const alert = page.getByRole('alert');
    if ((await alert.count()) > 0) return (await alert.allInnerTexts()).join(' ');
    return methodBoxes.evaluateAll((boxes) => boxes.map((b) => (b as HTMLInputElement).value));
  };
  await expect.poll(offered, POLL).toEqual(expect.arrayContaining(TICKED));
  expect((await recordedFetched()).some((u) => /arc-challenge.*\.gz/.test(u))).toBe(true);
  // The pool's own methods are checked at first: each model alone and the oracle.
  for (const m of [...SINGLES, 'oracle']) expect(await page.locator(`fieldset.methods input[value="${m}"]`).isChecked()).toBe(true);

  await page.getByLabel(/^Plan files/).setInputFiles({ name: 'plan.txt', mimeType: 'text/plain', buffer: Buffer.from(PLAN) });
  await page.getByLabel(/^More methods/).fill(CONDUCTOR);
  const id = await runEvaluation(page, { limit: LIMIT, methods: TICKED, concurrency: '4' });
  await expect.poll(() => status(page), RUN).toBe('Done');
  const report = page.locator(`[data-testid=evaluation-report][data-eval-id="${id}"]`);
  await report.getByTestId('report-table').waitFor();
  expect(await report.locator('h2').innerText()).toMatch(/^routerbench-4 held out \[0–6\)/);
  const rowOf = (method: string) => report.locator(`tr[data-method="${method}"]`);
  const cells = async (method: string) => (await rowOf(method).locator('td').allInnerTexts()).map((t) => t.trim());

  // The same evaluation by the CLI, from data/ on disk.
  dir = await mkdtemp(join(tmpdir(), 'baton-eval-recorded-'));
  await writeFile(join(dir, 'plan.txt'), PLAN);
  const io = recordingIo(dir);
  const methods = [...TICKED, CONDUCTOR].flatMap((m) => ['--method', m]);
  const code = await main(['eval', '--dataset', 'routerbench', '--pool', 'routerbench-4', '--seed', SEED, '--limit', LIMIT, ...methods, '--out', 'out'], io);
  expect(code, io.err).toBe(0);
  const cli = JSON.parse(await readFile(join(dir, 'out', 'report.json'), 'utf8')) as EvalReport;
  expect(cli.hull?.length).toBeGreaterThan(0);
  expect(cli.methods.map((m) => m.method).sort()).toEqual(
    (await report.locator('tbody tr').evaluateAll((rows) => rows.map((r) => r.getAttribute('data-method')!))).sort(),
  );
  for (const m of cli.methods) {
    const [accuracy, ...rest] = await cells(m.method);
    const shown = [accuracy, ...FIGURES.map((c) => rest[c.i]), rest.at(-1)];
    expect([m.method, ...shown]).toEqual([m.method, accuracyText(m), ...FIGURES.map((c) => c.cell(m)), hullPlace(cli, m.method)]);
  }
  // The plan ran as a workflow on the replayed models: no malformed runs, two calls a question.
  expect(cli.methods.find((m) => m.method === CONDUCTOR)).toMatchObject({ malformedRate: 0, callsPerQuestion: 2 });
  // Replayed dollars are RouterBench's recorded ones: GPT-4 costs the most per question.
  const perQuestion = Object.fromEntries(cli.methods.map((m) => [m.method, m.costUsd.perQuestion]));
  expect(Math.max(...SINGLES.map((s) => perQuestion[s]))).toBe(perQuestion['single:gpt-4-1106-preview']);
  expect(perQuestion['single:gpt-4-1106-preview']).toBeGreaterThan(0);
  expect(await report.getByTestId('report-plot').locator('polyline.hull').count()).toBe(1);
  expect(app.errors).toEqual([]);
});

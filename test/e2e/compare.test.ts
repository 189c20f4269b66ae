/**
 * Comparing workflows on the Ask page as a user does, over the demo's simulated workers and a Conductor served
 * from this machine: four plans run side by side (one sampled again because it repeated another), a pick, a
 * fused answer, a plan edited and run again, a ranking; the stored group (tags, rewards) survives a reload and
 * shows on the Episodes page. Also: the view on a phone, and a thumbs up on a single answer. Screenshots go
 * to test/e2e/__screenshots__/ for a person to look at.
 */
import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, expect, test } from 'vitest';
import type { Episode } from '../../src/core/episodes/index.ts';
import { startFakeProviderServer, type FakeProviderServer } from '../support/fake-provider-server.ts';
import { openApp, POLL, scrollsSideways, storedEpisodes, type AppPage } from './app-page.ts';

const OUT = join(import.meta.dirname, '__screenshots__');
let server: FakeProviderServer;
let app: AppPage | undefined;
beforeAll(async () => {
  server = await startFakeProviderServer();
  await mkdir(OUT, { recursive: true });
});
afterAll(() => server?.close());
afterEach(async () => {
  await app?.session.close();
  server.reset();
});

/** A plan over the demo pool (0 Euler, 1 Sage, 2 Scout, 3 Atlas). */
const plan = (workers: number[]) =>
  `I will route this.\nmodel_id = [${workers.join(', ')}]\nsubtasks = [${workers.map((_, i) => (i === 0 ? '"Solve it; answer in <answer></answer> tags."' : '"Check it; answer in <answer></answer> tags."')).join(', ')}]\naccess_list = [${workers.map((_, i) => (i === 0 ? '[]' : '"all"')).join(', ')}]`;
const PLANS = [plan([0]), plan([2, 0]), plan([1]), plan([3, 1])];

/** The app with the endpoint on this machine as the Conductor, on the Ask page. */
async function openWithEndpointConductor(viewport?: { width: number; height: number }): Promise<AppPage> {
  const opened = await openApp({ allow: [server.url], ...(viewport ? { viewport } : {}) });
  const { page } = opened;
  await page.goto(`${opened.url}/#/conductor`);
  await page.getByLabel('Base URL').fill(`${server.url}/v1`);
  await page.getByRole('radio', { name: /A remote OpenAI-compatible endpoint/ }).check();
  await page.goto(`${opened.url}/#/ask`);
  await page.getByRole('heading', { name: 'Ask', level: 1 }).waitFor();
  return opened;
}

const columns = (a: AppPage) => a.page.getByTestId('compare-column');

/** Waits until every column has ended, then gives each one's progress words. */
async function ended(a: AppPage, count: number): Promise<string[]> {
  await expect.poll(() => columns(a).count(), POLL).toBe(count);
  await a.page.waitForFunction(
    () => [...document.querySelectorAll('[data-testid=compare-column]')].every((c) => c.getAttribute('data-status') !== 'running'),
    undefined,
    { timeout: 90_000 },
  );
  const progress = await columns(a).getByTestId('column-progress').allInnerTexts();
  // A failed run's message says why, in the test's output.
  if (progress.includes('failed')) console.error(await columns(a).allInnerTexts());
  return progress;
}

test('compare four workflows, pick one, fuse, edit and re-run one, rank; all of it stored and shown again', async () => {
  app = await openWithEndpointConductor({ width: 1280, height: 900 });
  const { page } = app;
  // Five plans for four runs: the third repeats the first, so one run samples again.
  server.script(...[PLANS[0], PLANS[1], PLANS[0], PLANS[2], PLANS[3]].map((text) => ({ text })));
  expect(await page.getByLabel('Workflows to compare').inputValue()).toBe('4');
  await page.getByRole('button', { name: 'Compare', exact: true }).click();
  expect(await ended(app, 4)).toEqual(['answered', 'answered', 'answered', 'answered']);
  expect(server.requests.filter((r) => r.path.endsWith('/chat/completions'))).toHaveLength(5);
  await expect.poll(() => columns(app!).getByTestId('compare-answer').count(), POLL).toBe(4);
  await page.screenshot({ path: join(OUT, 'compare-desktop.png'), fullPage: true });

  // Pick the second column.
  await columns(app).nth(1).getByRole('button', { name: 'Pick this' }).click();
  await page.getByTestId('choice-saved').waitFor();
  expect(await columns(app).getByTestId('column-choice').allInnerTexts()).toEqual(['not picked', 'your pick', 'not picked', 'not picked']);

  // Fuse the four answers with Atlas.
  await page.getByLabel('Fuse the answers with').selectOption({ label: 'Atlas (strong, expensive)' });
  await page.getByRole('button', { name: 'Fuse', exact: true }).click();
  await expect.poll(() => page.getByTestId('fused-text').count(), { timeout: 60_000 }).toBe(1);
  expect(await page.getByTestId('fused-answer').getByRole('heading').innerText()).toMatch(/^Fused answer by Atlas \(strong, expensive\) · \$/);

  // Edit the first column's plan: Scout instead of its worker, a subtask of our own; run it again.
  const first = columns(app).first();
  await first.getByRole('button', { name: 'Edit plan' }).click();
  const editor = first.getByRole('form', { name: 'Edit the plan' });
  await editor.getByLabel('Worker').first().selectOption({ label: 'Scout (cheap arithmetic checker)' });
  await editor.getByLabel('Subtask').first().fill('Multiply the numbers and give the product in <answer></answer> tags.');
  await editor.getByRole('button', { name: 'Run the edited plan' }).click();
  expect(await ended(app, 5)).toEqual(['answered', 'answered', 'answered', 'answered', 'answered']);
  const edited = columns(app).nth(1);
  expect(await edited.locator('.chip').first().innerText()).toBe('edited');
  expect(await edited.getByTestId('graph-steps-text').innerText()).toMatch(/Scout/);

  // Rank: the edited run first (moved left), then the rest as they stand; save.
  await edited.getByRole('button', { name: 'Move Workflow 5 left (better)' }).click();
  await page.getByRole('button', { name: 'Save this order as my ranking' }).click();
  await expect
    .poll(() => columns(app!).getByTestId('column-choice').allInnerTexts(), POLL)
    .toEqual(['ranked 1', 'ranked 2', 'ranked 3', 'ranked 4', 'ranked 5']);
  await page.screenshot({ path: join(OUT, 'compare-ranked-desktop.png'), fullPage: true });

  // What is stored: one group of four runs, one edited run and the fused answer.
  const stored = await storedEpisodes<Episode>(page);
  const group = stored.find((e) => e.tags.includes('fuse'))!.group!;
  const members = stored.filter((e) => e.group === group);
  expect(members.map((e) => e.tags.join('+')).sort()).toEqual(['compare', 'compare', 'compare', 'compare', 'compare+edited', 'fuse']);
  const plans = members.filter((e) => !e.tags.includes('fuse') && !e.tags.includes('edited')).map((e) => e.completion.text);
  expect(plans.sort()).toEqual([...PLANS].sort());
  const editedEpisode = members.find((e) => e.tags.includes('edited'))!;
  expect(editedEpisode.steps[0]).toMatchObject({ workerId: 'sim-scout', subtask: 'Multiply the numbers and give the product in <answer></answer> tags.' });
  expect(editedEpisode.prompt).toEqual(members.find((e) => e.tags.join() === 'compare')!.prompt);
  expect(editedEpisode.reward).toEqual({ value: 1, correct: true, format: true, details: { source: 'pick', rank: 1 } });
  const ranks = members.flatMap((e) => (e.reward ? [e.reward.details?.rank] : [])).sort();
  expect(ranks).toEqual([1, 2, 3, 4, 5]);
  expect(members.find((e) => e.tags.includes('fuse'))!.reward).toBeUndefined();
  expect(app.errors).toEqual([]);

  // A reload shows the comparison again, in the saved order, with the fused answer.
  await page.reload();
  await page.getByRole('heading', { name: 'Ask', level: 1 }).waitFor();
  await expect
    .poll(() => columns(app!).getByTestId('column-choice').allInnerTexts(), POLL)
    .toEqual(['ranked 1', 'ranked 2', 'ranked 3', 'ranked 4', 'ranked 5']);
  expect(await columns(app).first().locator('.chip').first().innerText()).toBe('edited');
  await page.getByTestId('fused-text').waitFor();

  // The Episodes page lists the choices and tags, and an episode names its group.
  await page.getByRole('navigation', { name: 'Pages' }).getByRole('link', { name: 'Episodes' }).click();
  await page.getByTestId('episode-list').getByRole('link').first().waitFor();
  expect((await page.getByTestId('episode-choice').allInnerTexts()).sort()).toEqual(['picked', 'ranked 2', 'ranked 3', 'ranked 4', 'ranked 5']);
  expect((await page.getByTestId('episode-tag').allInnerTexts()).sort()).toEqual(['compare', 'compare', 'compare', 'compare', 'compare', 'edited', 'fuse']);
  await page
    .getByTestId('episode-list')
    .getByRole('link', { name: /picked/ })
    .click();
  expect(await page.getByTestId('episode-group').innerText()).toBe(`Group ${group} · tags: compare, edited`);
  expect(app.errors).toEqual([]);
  expect(await app.cspViolations()).toEqual([]);
});

test('on a phone the columns swipe sideways inside the page, and a pick works', async () => {
  app = await openWithEndpointConductor({ width: 390, height: 844 });
  const { page } = app;
  server.script(...PLANS.slice(0, 2).map((text) => ({ text })));
  await page.getByLabel('Workflows to compare').selectOption('2');
  await page.getByRole('button', { name: 'Compare', exact: true }).click();
  expect(await ended(app, 2)).toEqual(['answered', 'answered']);
  await page.getByTestId('compare-view').scrollIntoViewIfNeeded();
  await page.screenshot({ path: join(OUT, 'compare-phone.png'), fullPage: true });
  expect(await scrollsSideways(page)).toBe(false);
  const width = await columns(app)
    .first()
    .evaluate((c) => c.getBoundingClientRect().width);
  expect(width).toBeGreaterThan(280);
  await columns(app).first().getByRole('button', { name: 'Pick this' }).click();
  await page.getByTestId('choice-saved').waitFor();
  expect(app.errors).toEqual([]);
});

test('a thumbs up on a single answer is stored as its reward', async () => {
  app = await openApp();
  const { page } = app;
  // The sample question comes with its gold answer; a rating is for an answer nobody graded.
  await page.getByRole('button', { name: 'Do not grade' }).click();
  await page.getByRole('button', { name: 'Run' }).click();
  await page.getByTestId('episode-saved').waitFor({ timeout: 60_000 });
  await page.getByRole('button', { name: /Good/ }).click();
  await page.getByTestId('rating-saved').waitFor();
  const [episode] = await storedEpisodes<Episode>(page);
  expect(episode.reward).toEqual({ value: 1, correct: true, format: true, details: { source: 'rating' } });
  await page.getByRole('button', { name: /Poor/ }).click();
  await expect.poll(async () => (await storedEpisodes<Episode>(page))[0].reward?.value, POLL).toBe(0);
  expect(await page.getByRole('button', { name: /Poor/ }).getAttribute('aria-pressed')).toBe('true');
});

/**
 * "Train on my choices" in the built app (headless Chromium, WebGPU on SwiftShader): pick groups, stored
 * as the Ask page's comparison stores them (test/support/user-picks.ts, from the shapes agreed for issue
 * 24), come in through the Episodes page's Import; the Train page trains the demo Conductor on them in
 * the trainer worker, shows the held-out check (the current Conductor and the trained one on the latest
 * picks) before "Use as Conductor", which makes the trained adapter the Ask page's Conductor.
 */
import { afterEach, expect, test } from 'vitest';
import { shortExpertsTaskSet } from '../../src/core/bench/index.ts';
import { episodeToLine, type Episode } from '../../src/core/episodes/index.ts';
import { DEMO_POOL } from '../../src/core/providers/simulated/index.ts';
import { simulatedComparison } from '../support/user-picks.ts';
import { importEpisodes, openApp, storedEpisodes, type AppPage } from './app-page.ts';

/** The demo Conductor's format (public/demo-conductor/conductor.json). */
const DEMO_FORMAT = { prompt: 'compact', constrain: true, maxSteps: 1, fixedSubtasks: true } as const;
const USER_PICKS: Record<string, string> = { number: 'sim-scout', mcq: 'sim-atlas' };

let app: AppPage | undefined;
afterEach(() => app?.session.close());

test('picks imported, trained on, checked on the latest picks, used as the Ask page Conductor', { timeout: 900_000 }, async () => {
  const { train } = shortExpertsTaskSet({ seed: 3 });
  const episodes: Episode[] = [];
  for (const [i, task] of train.slice(0, 5).entries()) {
    const when = { group: `compare-${i}`, createdAt: new Date(Date.UTC(2026, 11, 2, 10, i)).toISOString() };
    episodes.push(...(await simulatedComparison(task, DEMO_POOL, DEMO_FORMAT, USER_PICKS[task.kind], when)));
  }

  app = await openApp({ hash: '#/train' });
  const { page } = app;
  // Nothing to learn from yet: the page says where picks come from.
  await page.getByRole('button', { name: 'Train on my choices' }).click();
  await expect
    .poll(() => page.getByTestId('train-on-choices').innerText(), { timeout: 120_000 })
    .toMatch(/no picks or ratings to learn from yet: compare workflows on the Ask page/);

  expect(await importEpisodes(app, 'picks.jsonl', episodes.map((e) => `${episodeToLine(e)}\n`).join(''))).toMatch(/Imported 20,/);
  await page.getByRole('navigation', { name: 'Pages' }).getByRole('link', { name: 'Train' }).click();
  await page.getByRole('button', { name: 'Train on my choices' }).click();
  const section = page.getByTestId('train-on-choices');
  await page.getByTestId('choices-check').waitFor({ timeout: 600_000 });
  expect(await page.getByTestId('choices-summary').innerText()).toMatch(/Trained on 4 picks; checked on your 1 latest pick/);
  expect(await page.getByTestId('check-before').innerText()).toMatch(/^[01] of 1 \((0|100)%\)$/);
  expect(await page.getByTestId('check-after').innerText()).toMatch(/^[01] of 1 \((0|100)%\)$/);
  expect(await section.innerText()).toMatch(/Current Conductor[\s\S]*Trained on your choices/);

  await section.getByRole('button', { name: 'Use as Conductor' }).click();
  await section.getByRole('status').filter({ hasText: "The Ask page's Conductor is now the one trained on your choices" }).waitFor();
  await page.getByRole('navigation', { name: 'Pages' }).getByRole('link', { name: 'Ask' }).click();
  await page.getByRole('heading', { name: 'Ask', level: 1 }).waitFor();
  await page.getByLabel('Question', { exact: true }).fill(train[10].question);
  await page.getByRole('button', { name: 'Run' }).click();
  await page.getByTestId('episode-saved').waitFor({ timeout: 300_000 });
  const asked = (
    await storedEpisodes<{ tags: string[]; conductor: { runtime: string; adapter?: string; sampling?: { temperature: number } }; parseError?: string }>(page)
  ).filter((e) => e.tags.includes('ask'));
  expect(asked).toHaveLength(1);
  expect(asked[0].conductor).toMatchObject({
    runtime: 'engine',
    adapter: expect.stringMatching(/^choices-.*\(trained in this browser\)$/),
    sampling: { temperature: 0 },
  });
  expect(asked[0].parseError).toBeUndefined();
  expect(app.errors).toEqual([]);
});

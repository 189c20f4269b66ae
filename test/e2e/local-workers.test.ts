/**
 * A fully local run in the built app (headless Chromium, WebGPU on SwiftShader): the demo Conductor on Baton's
 * engine plans over a pool of two local engine workers (the demo model, added on the Workers page with no key),
 * all in the Conductor's web worker. A first question loads the model; then the network is switched off and a
 * second question is answered and stored with not one request leaving the page; the Workers page's Test of a
 * local worker runs offline as well.
 */
import type { Request } from 'playwright-core';
import { afterEach, expect, test } from 'vitest';
import { openApp, POLL, storedEpisodes, type AppPage } from './app-page.ts';

interface StoredEpisode {
  task: { question: string };
  pool: { provider: string; model: string }[];
  conductor: { runtime: string };
  steps: { workerId: string; output: string; usage: { input: number; output: number }; costUsd: number | null; error?: unknown }[];
  final: string;
  error?: unknown;
}

let app: AppPage | undefined;
afterEach(() => app?.session.close());

test('the demo Conductor and local engine workers answer with the network off, and the episode is stored', { timeout: 600_000 }, async () => {
  app = await openApp({ hash: '#/workers' });
  const { page, session } = app;
  const requests: Request[] = [];
  session.context.on('request', (r) => requests.push(r));

  // Two local workers on the demo model, short answers (SwiftShader decodes slowly); no key asked for.
  const rows = page.getByTestId('worker-row');
  while ((await rows.count()) > 0) await rows.first().getByRole('button', { name: 'Remove' }).click();
  for (const i of [0, 1]) {
    await page.getByLabel('Add a worker').selectOption({ label: "Demo model on Baton's engine (in this tab)" });
    await page.getByRole('button', { name: 'Add', exact: true }).click();
    const row = rows.nth(i);
    await row.getByRole('button', { name: 'Edit' }).click();
    await row.getByLabel('Max output tokens').fill('12');
    await row.getByLabel('Max output tokens').press('Tab');
    // Greedy, so what the tiny model writes is the same on every run.
    await row.getByLabel('Temperature').fill('0');
    await row.getByLabel('Temperature').press('Tab');
    await row.getByRole('button', { name: 'Edit' }).click();
    expect(await row.innerText()).toMatch(/engine · demo · in this tab, no key/);
  }
  expect(await page.getByTestId('no-price').count()).toBe(0);

  await page.getByRole('navigation', { name: 'Pages' }).getByRole('link', { name: 'Conductor' }).click();
  await page.getByRole('radio', { name: "Demo model on Baton's engine" }).check();
  await page.getByRole('navigation', { name: 'Pages' }).getByRole('link', { name: 'Ask' }).click();

  // Online once: the Conductor worker loads the demo model (from the app's own origin) and the run's code.
  await page.getByRole('button', { name: 'Run' }).click();
  await page.getByTestId('episode-saved').waitFor({ timeout: 300_000 });
  // The counter sees the web worker's requests: the model's weights were fetched by it.
  expect(requests.some((r) => r.url().endsWith('/demo-conductor/model.safetensors'))).toBe(true);

  await session.context.setOffline(true);
  const online = requests.length;
  await page.getByLabel('Question', { exact: true }).fill('What is 2 + 5?');
  await page.getByRole('button', { name: 'Run' }).click();
  await expect
    .poll(() => storedEpisodes<StoredEpisode>(app!.page).then((eps) => eps.filter((e) => e.task.question === 'What is 2 + 5?' && !e.error).length), {
      timeout: 300_000,
      interval: 500,
    })
    .toBe(1);
  await page.getByTestId('episode-saved').nth(1).waitFor({ timeout: POLL.timeout }); // the second turn of the conversation
  expect(requests.slice(online).map((r) => r.url())).toEqual([]);

  const episode = (await storedEpisodes<StoredEpisode>(app.page)).find((e) => e.task.question === 'What is 2 + 5?')!;
  expect(episode.conductor.runtime).toBe('engine');
  expect(episode.pool.map((w) => `${w.provider}:${w.model}`)).toEqual(['engine:demo', 'engine:demo']);
  expect(episode.steps.length).toBeGreaterThanOrEqual(1);
  for (const step of episode.steps) {
    expect(step.error).toBeUndefined();
    expect(step.output.trim()).not.toBe('');
    expect(step.usage.input).toBeGreaterThan(0);
    expect(step.usage.output).toBeGreaterThan(0);
    expect(step.usage.output).toBeLessThanOrEqual(12);
    expect(step.costUsd).toBe(0);
  }
  expect(episode.final).toBe(episode.steps.at(-1)!.output);
  expect(await page.getByTestId('turn').last().getByTestId('graph-step').count()).toBe(episode.steps.length);

  // The Workers page's Test of a local worker runs it in the Conductor worker: offline too, with no key. Asked
  // for "OK" with no prefill, the demo model (trained to write plans) answers greedily with blank lines only,
  // which the Test reports as it would any model's empty answer (outside the Conductor worker it would say the
  // provider cannot run there).
  await page.getByRole('navigation', { name: 'Pages' }).getByRole('link', { name: 'Workers' }).click();
  await rows.first().getByRole('button', { name: 'Test' }).click();
  await expect
    .poll(() => rows.first().getByRole('status').textContent(), { timeout: 60_000 })
    .toMatch(/^provider\/empty-answer: Baton's engine model 'demo' used all its output tokens without writing an answer/);
  expect(requests.slice(online).map((r) => r.url())).toEqual([]);
  expect(app.errors).toEqual([]);
});

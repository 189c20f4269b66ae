/**
 * The demo Conductor on Baton's engine, in the built app's Conductor web worker (headless Chromium,
 * WebGPU on SwiftShader): chosen on the Conductor page, it loads the demo model from the
 * app's own origin, writes a workflow that parses, and the run's episode records the engine and the
 * sampled token ids with their logprobs. The page stays usable while the worker generates.
 * Screenshots of the Conductor page go to test/e2e/__screenshots__/ for a person to look at.
 */
import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, expect, test } from 'vitest';
import { openApp, POLL, storedEpisodes, type AppPage } from './app-page.ts';

const OUT = join(import.meta.dirname, '__screenshots__');

interface StoredEpisode {
  conductor: { runtime: string; model: string; sampling?: { seed?: number } };
  completion: { text: string; tokenIds?: number[]; logprobs?: number[] };
  workflow?: { steps: unknown[] };
  parseError?: string;
  error?: { message: string };
}

let app: AppPage | undefined;
afterEach(() => app?.session.close());

test('the demo engine Conductor runs in the worker, its workflow parses, the episode keeps its tokens', { timeout: 400_000 }, async () => {
  app = await openApp({ hash: '#/conductor' });
  const { page } = app;
  await page
    .getByTestId('default-note')
    .getByText(/software renderer/)
    .waitFor();
  await page.getByRole('radio', { name: "Demo model on Baton's engine" }).check();
  expect(await page.getByRole('radio', { name: "Demo model on Baton's engine" }).isChecked()).toBe(true);

  await mkdir(OUT, { recursive: true });
  await page.screenshot({ path: join(OUT, 'engine-conductor-desktop.png'), fullPage: true });

  await page.getByRole('link', { name: 'Ask' }).click();
  await page.getByRole('button', { name: 'Run' }).click();
  // While the worker loads the model and generates, the page still answers: another page's nav link works.
  // A page blocked by the run would only reach Episodes once the run had stored its finished episode.
  await page.getByTestId('conductor-waiting').or(page.getByTestId('conductor-status')).first().waitFor({ timeout: 10_000 });
  await page.getByRole('link', { name: 'Episodes' }).click();
  await page.getByRole('heading', { level: 1, name: 'Episodes' }).waitFor({ timeout: 5_000 });
  const whileAway = await storedEpisodes<StoredEpisode>(app.page);
  await page.getByRole('link', { name: 'Ask' }).click();
  await page.getByTestId('episode-saved').waitFor({ timeout: 240_000 });

  // Only the run's checkpoint can be stored while it runs (what a reload would leave), never a finished episode.
  expect(whileAway.map((e) => e.error?.message.startsWith('Interrupted'))).toEqual(whileAway.map(() => true));
  const episodes = await storedEpisodes<StoredEpisode>(app.page);
  expect(episodes).toHaveLength(1);
  const [episode] = episodes;
  expect(episode.conductor.runtime).toBe('engine');
  expect(episode.conductor.model).toMatch(/demo-conductor.*trained on the demo pool/);
  expect(episode.parseError).toBeUndefined();
  expect(episode.workflow?.steps.length).toBeGreaterThanOrEqual(1);
  expect(episode.completion.text).toMatch(/^model_id = \[/);
  expect(episode.completion.tokenIds?.length).toBeGreaterThan(0);
  expect(episode.completion.logprobs?.length).toBe(episode.completion.tokenIds?.length);
  expect(await page.getByTestId('conductor-text').textContent()).toContain(episode.completion.text.slice(0, 20));
  await expect.poll(() => page.getByTestId('graph-step').count(), POLL).toBe(episode.workflow?.steps.length);
  // The run happened off the page's thread, in the Conductor worker (a blob: URL, named on creation).
  expect(await Promise.all(page.workers().map((w) => w.evaluate(() => self.name)))).toEqual(['conductor']);
  // The app's server (vite preview) answers generation_config.json, which the demo lacks, with its index.html
  // and status 200: the engine took that for a missing file, and the cache holds only that it is missing.
  const cachedUrls = await page.evaluate(async () => (await (await caches.open('baton-models')).keys()).map((r) => r.url));
  expect(cachedUrls.filter((u) => u.includes('generation_config'))).toEqual([`${app.url}/demo-conductor/generation_config.json?missing`]);

  // The Conductor page now shows the model loaded in the worker, and the browser's cache of its files.
  await page.getByRole('navigation', { name: 'Pages' }).getByRole('link', { name: 'Conductor' }).click();
  const status = page.getByTestId('engine-status');
  await expect.poll(() => status.textContent(), POLL).toMatch(/Loaded in this tab: demo-conductor[\s\S]*f32 weights/);
  // Read from the demo's conductor.json, as every engine Conductor's format is. The text as shown (innerText):
  // the markup's line breaks are not the sentence's.
  expect(await page.getByTestId('engine-format').innerText()).toMatch(
    /runs as it was trained .*: the short prompt, the lists alone, plans of at most 1 step, fixed subtask texts, its most likely plan; the reasoning box below does not apply/,
  );
  expect(await status.textContent()).toMatch(/Downloaded models kept by this browser: \d+(\.\d+)? KB from 1 source/);

  // The same files as "your model" from a URL, int4 on the GPU, through the form.
  await page.getByLabel('Model from').selectOption('url');
  await page.getByLabel('Model base URL').fill(`${app.url}/demo-conductor/`);
  await page.getByLabel('Weights on the GPU').selectOption('int4');
  await page.getByRole('button', { name: 'Load and use' }).click();
  await expect.poll(() => status.textContent(), POLL).toMatch(/Loaded in this tab: http[^ ]*demo-conductor\/[\s\S]*int4 weights/);
  // The choice is saved after the load resolves, a moment after the status shows it: wait for it, don't race it.
  await expect.poll(() => page.getByRole('radio', { name: "Your model on Baton's engine" }).isChecked(), POLL).toBe(true);
  await page.screenshot({ path: join(OUT, 'engine-conductor-loaded-desktop.png'), fullPage: true });

  await page.getByRole('button', { name: 'Unload' }).click();
  await expect.poll(() => status.textContent(), POLL).toMatch(/No engine model loaded/);
  await page.getByRole('button', { name: 'Free the cache' }).click();
  await expect.poll(() => status.textContent(), POLL).toMatch(/kept by this browser: none/);
  expect(app.errors).toEqual([]);
  expect(await app.cspViolations()).toEqual([]);
});

test('the Conductor page at phone width: no sideways scrolling', async () => {
  app = await openApp({ hash: '#/conductor', viewport: { width: 390, height: 844 } });
  const { page } = app;
  await page
    .getByTestId('default-note')
    .getByText(/software renderer/)
    .waitFor();
  await page.waitForLoadState('networkidle');
  await mkdir(OUT, { recursive: true });
  await page.screenshot({ path: join(OUT, 'engine-conductor-phone.png'), fullPage: true });
  expect(await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth)).toBeLessThanOrEqual(0);
  expect(app.errors).toEqual([]);
});

/**
 * The Train page in the built app (headless Chromium, WebGPU on SwiftShader): the experts preset on the
 * demo Conductor with tiny settings trains in the trainer web worker; a step's metrics reach the table
 * and the charts; Pause checkpoints into IndexedDB, a reload finds the run paused there and Resume
 * continues from that step (not from 0); the adapter downloads as PEFT files, and "Use as Conductor"
 * makes it the Ask page's Conductor, which then runs with it.
 */
import { mkdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, expect, test } from 'vitest';
import type { Download, Page } from 'playwright-core';
import { CHROMIUM_FLAGS } from '../support/browser.ts';
import { openApp, POLL, storedEpisodes, type AppPage } from './app-page.ts';

const OUT = join(import.meta.dirname, '__screenshots__');

/** Steps take tens of seconds on SwiftShader. */
const STEP = { timeout: 300_000, interval: 250 };

let app: AppPage | undefined;
afterEach(() => app?.session.close());

async function bytesOf(download: Download): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of await download.createReadStream()) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

async function download(page: Page, button: string): Promise<Buffer> {
  const [file] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: button }).click()]);
  return bytesOf(file);
}

/** Step numbers in the metrics table, newest first. */
const tableSteps = (page: Page) =>
  page
    .getByTestId('metrics-table')
    .locator('tbody th')
    .allTextContents()
    .catch(() => [] as string[]);

/** Episodes the training stored in the app's IndexedDB. */
async function trainingEpisodes(page: Page): Promise<{ tags: string[]; group?: string }[]> {
  return (await storedEpisodes<{ tags: string[]; group?: string }>(page)).filter((e) => e.tags.includes('train-page'));
}

test('train, pause, reload, resume from the checkpoint, export the adapter, use it as the Conductor', { timeout: 900_000 }, async () => {
  app = await openApp({ hash: '#/train' });
  const { page } = app;
  await page.getByRole('heading', { level: 1, name: 'Train' }).waitFor();
  // A field's name is its label's text, a hint after it included.
  const set = async (label: string, value: string) => page.getByLabel(new RegExp(`^${label}\\b`)).fill(value);
  await set('Steps', '2');
  await set('Questions per step', '2');
  await set('Samples per question', '2');
  await set('Max completion tokens', '40');
  await set('Held-out every', '0');
  // Free subtasks: with the fixed ones, two samples of the demo Conductor often score alike, and an
  // advantage of 0 leaves the adapter where it was; this run must show that training moves it.
  await page.getByRole('checkbox', { name: /Fixed subtask texts/ }).uncheck();
  const longest = async () => Number(/sequences of up to (\d+) tokens/.exec((await page.getByTestId('memory-estimate').textContent()) ?? '')?.[1] ?? NaN);
  await expect.poll(() => page.getByTestId('memory-estimate').textContent(), { timeout: 60_000 }).toMatch(/GPU memory for training: about [\d.]+ [KM]B/);
  // MMLU and GSM8K questions (a chunk loaded on demand) make far longer sequences than the short generated ones.
  const short = await longest();
  await page.getByLabel('Question set').selectOption('experts');
  await expect.poll(longest, { timeout: 60_000 }).toBeGreaterThan(short + 150);
  await page.getByLabel('Question set').selectOption('experts-short');
  await expect.poll(longest, POLL).toBe(short);

  // A field the run cannot read stops the Start with its reason; corrected, the run starts with it.
  await page.getByLabel('Calls in flight per provider').fill('simulated');
  await page.getByRole('button', { name: 'Start', exact: true }).click();
  await expect
    .poll(
      () =>
        page
          .getByRole('alert')
          .textContent()
          .catch(() => ''),
      POLL,
    )
    .toMatch(/provider=N pairs .* got "simulated"/);
  await page.getByLabel('Calls in flight per provider').fill('simulated=2');
  await page.getByRole('button', { name: 'Start', exact: true }).click();
  await expect.poll(() => page.getByTestId('train-status').textContent(), POLL).toMatch(/Starting|Training/);
  // The page answers while the worker trains: another page opens at once, and back.
  await page.getByRole('navigation', { name: 'Pages' }).getByRole('link', { name: 'Episodes' }).click();
  await page.getByRole('heading', { level: 1, name: 'Episodes' }).waitFor({ timeout: 5_000 });
  await page.getByRole('navigation', { name: 'Pages' }).getByRole('link', { name: 'Train' }).click();

  await expect.poll(() => tableSteps(page), STEP).toEqual(['1']);
  await page.getByRole('button', { name: 'Pause' }).click();
  await expect.poll(() => page.getByTestId('train-status').textContent(), STEP).toBe('Paused');
  expect(await page.getByTestId('train-step').textContent()).toBe('Step 1 of 2');
  // Step 1's figures reached the charts (uPlot drew them) and the latest group lists its workflows.
  for (const chart of ['reward', 'accuracy', 'format', 'dollars', 'kl-entropy', 'grad-norm']) {
    await page.getByTestId(`chart-${chart}`).locator('canvas').waitFor();
  }
  await expect.poll(() => page.getByTestId('latest-group').locator('li').count()).toBe(2);
  const stepOne = await page.getByTestId('metrics-table').locator('tbody tr').first().textContent();

  await page.reload();
  await page.getByRole('heading', { level: 1, name: 'Train' }).waitFor();
  await expect.poll(() => page.getByTestId('train-status').textContent(), POLL).toBe('Paused');
  expect(await page.getByTestId('train-step').textContent()).toBe('Step 1 of 2');
  expect(await tableSteps(page)).toEqual(['1']);
  expect(await page.getByTestId('metrics-table').locator('tbody tr').first().textContent()).toBe(stepOne);
  // The form shows the stored run's settings, not the defaults.
  expect(await page.getByLabel('Samples per question').inputValue()).toBe('2');
  expect(await page.getByLabel('Calls in flight per provider').inputValue()).toBe('simulated=2');

  await page.getByRole('button', { name: 'Resume' }).click();
  await expect.poll(() => page.getByTestId('train-status').textContent(), STEP).toBe('Done');
  expect(await tableSteps(page)).toEqual(['2', '1']);
  expect(await page.getByTestId('train-step').textContent()).toBe('Step 2 of 2');
  // Two steps of 2 questions x 2 samples, each stored once (the paused step's rollouts were cut before it finished).
  const episodes = await trainingEpisodes(page);
  expect(episodes.filter((e) => e.tags.includes('step:2')).length).toBeGreaterThanOrEqual(4);
  expect(episodes.filter((e) => e.tags.includes('step:1')).length).toBe(4);
  expect(episodes.every((e) => e.group?.startsWith('grpo-0/step-'))).toBe(true);

  // A finished run, at a laptop's size and a phone's, for a person to look at; the phone's must not scroll sideways.
  await mkdir(OUT, { recursive: true });
  await page.screenshot({ path: join(OUT, 'train-run-desktop.png'), fullPage: true });
  await page.setViewportSize({ width: 390, height: 844 });
  await page.screenshot({ path: join(OUT, 'train-run-phone.png'), fullPage: true });
  expect(await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth)).toBeLessThanOrEqual(0);
  await page.setViewportSize({ width: 1280, height: 800 });

  const config = JSON.parse((await download(page, 'Download adapter_config.json')).toString('utf8'));
  expect(config).toMatchObject({ peft_type: 'LORA', r: 8, lora_alpha: 16 });
  expect([...config.target_modules].sort()).toEqual(['q_proj', 'v_proj']);
  const weights = await download(page, 'Download adapter_model.safetensors');
  const headerLength = Number(weights.readBigUInt64LE(0));
  const header = JSON.parse(weights.subarray(8, 8 + headerLength).toString('utf8')) as Record<
    string,
    { dtype: string; shape: number[]; data_offsets: [number, number] }
  >;
  const names = Object.keys(header)
    .filter((n) => n !== '__metadata__')
    .sort();
  expect(names).toEqual(
    [0, 1]
      .flatMap((l) => ['q_proj', 'v_proj'].flatMap((m) => ['A', 'B'].map((ab) => `base_model.model.model.layers.${l}.self_attn.${m}.lora_${ab}.weight`)))
      .sort(),
  );
  // The shapes are the demo Conductor's: q_proj reads the hidden state, v_proj writes the key/value heads.
  const demo = JSON.parse(await readFile(join(import.meta.dirname, '../../public/demo-conductor/config.json'), 'utf8'));
  expect(header['base_model.model.model.layers.0.self_attn.q_proj.lora_A.weight'].shape).toEqual([8, demo.hidden_size]);
  expect(header['base_model.model.model.layers.0.self_attn.v_proj.lora_B.weight'].shape).toEqual([demo.num_key_value_heads * demo.head_dim, 8]);
  const end = Math.max(...names.map((n) => header[n].data_offsets[1]));
  expect(weights.byteLength).toBe(8 + headerLength + end);
  // Trained: B started at zero (PEFT's init) and two updates moved it.
  const b = header['base_model.model.model.layers.0.self_attn.q_proj.lora_B.weight'];
  const bValues = new Float32Array(
    weights.buffer.slice(weights.byteOffset + 8 + headerLength + b.data_offsets[0], weights.byteOffset + 8 + headerLength + b.data_offsets[1]),
  );
  expect(bValues.some((v) => v !== 0)).toBe(true);

  await page.getByRole('button', { name: 'Use as Conductor' }).click();
  await page.getByRole('status').filter({ hasText: "The Ask page's Conductor is now this adapter" }).waitFor();
  await page.getByRole('navigation', { name: 'Pages' }).getByRole('link', { name: 'Conductor' }).click();
  expect(await page.getByTestId('trained-adapter-note').textContent()).toMatch(/adapter trained on the Train page \(train-/);
  await page.getByRole('navigation', { name: 'Pages' }).getByRole('link', { name: 'Ask' }).click();
  await page.getByRole('button', { name: 'Run' }).click();
  await page.getByTestId('episode-saved').waitFor({ timeout: 300_000 });
  const asked = await storedEpisodes<{
    conductor: { runtime: string; adapter?: string; sampling?: { temperature: number } };
    tags: string[];
    parseError?: string;
    prompt: { content: string }[];
    workflow?: { steps: { subtask: string }[] };
  }>(page);
  const ask = asked.filter((e) => e.tags.includes('ask'));
  expect(ask).toHaveLength(1);
  expect(ask[0].conductor.runtime).toBe('engine');
  expect(ask[0].conductor.adapter).toMatch(/^train-.*\(trained in this browser\)$/);
  expect(ask[0].parseError).toBeUndefined();
  // It ran as it was trained (the format kept with the adapter): the Train page's short prompt, at most the
  // form's 2 steps with subtasks of at most its 6 characters, its most likely plan.
  expect(ask[0].prompt.map((m) => m.content)).toEqual([expect.stringMatching(/^Plan at most 2 steps over models 0-3 /)]);
  expect(ask[0].workflow!.steps.length).toBeLessThanOrEqual(2);
  for (const step of ask[0].workflow!.steps) expect(step.subtask.length).toBeLessThanOrEqual(6);
  expect(ask[0].conductor.sampling?.temperature).toBe(0);
  expect(app.errors).toEqual([]);
});

test('without WebGPU the Train page says so once, and a Start fails with that message and no step', { timeout: 120_000 }, async () => {
  app = await openApp({ hash: '#/train', browserArgs: CHROMIUM_FLAGS.filter((f) => !f.includes('webgpu')) });
  const { page } = app;
  const noGpu = /found no usable graphics adapter.*Training runs on the GPU through WebGPU, so it cannot run in this tab/;
  await expect.poll(() => page.getByTestId('memory-estimate').textContent(), POLL).toMatch(noGpu);
  await page.getByRole('button', { name: 'Start', exact: true }).click();
  await expect
    .poll(
      () =>
        page
          .getByRole('alert')
          .textContent()
          .catch(() => ''),
      POLL,
    )
    .toMatch(noGpu);
  expect(await page.getByTestId('train-status').textContent()).toBe('Stopped by an error');
  // One message, not two: the estimate line leaves it to the alert.
  expect(await page.getByText(noGpu).count()).toBe(1);
  expect(await page.getByRole('button', { name: 'Resume' }).count()).toBe(0);
  expect(await page.getByTestId('metrics-table').locator('tbody tr').count()).toBe(0);
});

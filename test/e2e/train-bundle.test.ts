/**
 * The Train page's "Export for a GPU server" in the built app: the download is a zip of the bundled CLI
 * (fetched from the app's own origin only on export, never while the page loads), the page's settings
 * as a baton train config, the questions, the pool without keys, the demo Conductor and a README with
 * the one command.
 */
import { readFile } from 'node:fs/promises';
import { unzipSync } from 'fflate';
import { afterEach, expect, test } from 'vitest';
import { openApp, type AppPage } from './app-page.ts';

let app: AppPage | undefined;
afterEach(() => app?.session.close());

test('exports the run as set for a GPU server, as one zip', { timeout: 180_000 }, async () => {
  app = await openApp({ hash: '#/train' });
  const { page } = app;
  const cliRequests: string[] = [];
  page.on('request', (r) => void (r.url().includes('/baton-cli/') && cliRequests.push(r.url())));
  await page.getByRole('heading', { level: 1, name: 'Train' }).waitFor();
  await page.getByLabel(/^Steps\b/).fill('7');
  await page.getByLabel(/^Samples per question\b/).fill('3');
  expect(cliRequests).toEqual([]);

  const [download] = await Promise.all([
    page.waitForEvent('download', { timeout: 120_000 }),
    page.getByRole('button', { name: 'Export for a GPU server' }).click(),
  ]);
  expect(download.suggestedFilename()).toBe('baton-train.zip');
  const chunks: Buffer[] = [];
  for await (const chunk of await download.createReadStream()) chunks.push(chunk as Buffer);
  const files = unzipSync(new Uint8Array(Buffer.concat(chunks)));
  const text = (name: string) => new TextDecoder().decode(files[`baton-train/${name}`]);
  expect(Object.keys(files).sort()).toEqual(
    [
      'README.md',
      'baton.mjs',
      'config.json',
      'held-out.jsonl',
      'model/config.json',
      'model/model.safetensors',
      'model/tokenizer.json',
      'model/tokenizer_config.json',
      'pool.json',
      'tasks.jsonl',
    ].map((f) => `baton-train/${f}`),
  );
  expect(cliRequests.length).toBeGreaterThan(0);

  const webgpu = JSON.parse(await readFile('node_modules/webgpu/package.json', 'utf8')).version;
  expect(text('README.md')).toContain(`npm i webgpu@${webgpu} && node baton.mjs train --config config.json --out run`);
  expect(text('baton.mjs').length).toBeGreaterThan(1_000_000);
  expect(JSON.parse(text('config.json'))).toMatchObject({
    model: 'model',
    pool: 'pool.json',
    tasks: 'tasks.jsonl',
    'held-out': 'held-out.jsonl',
    steps: 7,
    group: 3,
    constrain: true,
    prompt: 'compact',
    weights: 'f32',
  });
  const tasks = text('tasks.jsonl')
    .trim()
    .split('\n')
    .map((l) => JSON.parse(l));
  expect(tasks.length).toBeGreaterThan(20);
  expect(new Set(tasks.map((t) => t.kind))).toEqual(new Set(['number', 'mcq']));
  expect(text('held-out.jsonl').trim().split('\n')).toHaveLength(8);
  const pool = JSON.parse(text('pool.json')).workers;
  expect(pool.map((w: { provider: string }) => w.provider)).toEqual(['simulated', 'simulated', 'simulated', 'simulated']);
  expect(Buffer.from(files['baton-train/model/model.safetensors']).equals(await readFile('public/demo-conductor/model.safetensors'))).toBe(true);
});

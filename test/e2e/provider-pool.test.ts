/**
 * A pool of OpenAI, Anthropic and Gemini workers set up on the Workers page as a user would (preset, base
 * URL pointed at the fake provider server, price, key typed in), the OpenAI worker prompted as Conductor.
 * Answers stream into the graph; tokens and dollars per step and in total are what the server's usage and
 * the prices imply. Then the Anthropic key is wrong: that step says so, the run is an infra error, and
 * nothing stored before is touched.
 */
import { join } from 'node:path';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { startFakeProviderServer, type FakeProviderServer, type FakeUsage } from '../support/fake-provider-server.ts';
import { ask, episodeLines, exportEpisodes, openApp, POLL, saveKey, setPool, useWorkerConductor, type AppPage } from './app-page.ts';

const KEYS = { openai: 'sk-proj-good-openai-key-1111', anthropic: 'sk-ant-good-anthropic-key-2222', google: 'AIza-good-gemini-key-3333' };
const WRONG_ANTHROPIC_KEY = 'sk-ant-wrong-anthropic-key-9999';

// Prices ($/M) and usages chosen so every dollar figure is exact at the UI's precision.
const PRICES = [
  { input: 1, output: 10 },
  { input: 3, output: 15 },
  { input: 2, output: 8 },
];
const CONDUCTOR_USAGE: FakeUsage = { input: 20_000, output: 1_000 }; // $0.02 + $0.01
const STEP_USAGE: FakeUsage[] = [
  { input: 50_000, output: 5_000 }, // $0.05 + $0.05
  { input: 40_000, output: 4_000 }, // $0.12 + $0.06
  { input: 100_000, output: 10_000 }, // $0.20 + $0.08
];
const STEP_CHUNKS = [
  ['Seventeen ', 'times ', 'twenty-three ', 'is ', '391: ', '<answer>391</answer>'],
  ['Checking: ', '17 × 20 = 340, ', '17 × 3 = 51, ', '340 + 51 ', 'is ', '<answer>391</answer>'],
  ['Both ', 'steps ', 'agree, ', 'so ', 'the answer is ', '<answer>391</answer>'],
];
const PLAN =
  'Solve, check, conclude.\nmodel_id = [0, 1, 2]\nsubtasks = ["Multiply.", "Check the product.", "State the answer."]\naccess_list = [[], [0], [0, 1]]';
const MODELS = ['gpt-5', 'claude-sonnet-4-5', 'gemini-2.5-pro'];

let server: FakeProviderServer;
let app: AppPage;
let slots: { openai: string; anthropic: string; google: string };

beforeAll(async () => {
  server = await startFakeProviderServer({ acceptKeys: Object.values(KEYS) });
  slots = { openai: `openai@${server.url}`, anthropic: `anthropic@${server.url}`, google: `google@${server.url}` };
  app = await openApp({ allow: [server.url] });
  await setPool(app, [
    { preset: 'GPT-5', baseUrl: `${server.url}/v1`, price: PRICES[0] },
    { preset: 'Claude Sonnet', baseUrl: `${server.url}/v1`, price: PRICES[1] },
    { preset: 'Gemini 2.5 Pro', baseUrl: `${server.url}/v1beta`, price: PRICES[2] },
  ]);
  for (const [provider, slot] of Object.entries(slots)) await saveKey(app.page, slot, KEYS[provider as keyof typeof KEYS]);
  await useWorkerConductor(app.page, 'GPT-5');
});
afterAll(async () => {
  await app?.session.close();
  await server?.close();
});

function scriptRun(): void {
  server.scriptModel(MODELS[0], { text: PLAN, usage: CONDUCTOR_USAGE });
  MODELS.forEach((model, i) => server.scriptModel(model, { chunks: STEP_CHUNKS[i], usage: STEP_USAGE[i], chunkDelayMs: 120 }));
}

/** Records, in the page, every text a graph node showed while its status read "running". */
async function recordRunningNodes(app: AppPage): Promise<() => Promise<string[][]>> {
  await app.page.evaluate(() => {
    const seen: string[][] = [];
    (window as unknown as { __running: string[][] }).__running = seen;
    new MutationObserver(() => {
      document.querySelectorAll('[data-testid=graph-step]').forEach((node, i) => {
        const output = node.querySelector('.output')?.textContent ?? '';
        if (node.querySelector('.status')?.textContent === 'running' && output !== '') (seen[i] ??= []).push(output);
      });
    }).observe(document.body, { subtree: true, childList: true, characterData: true });
  });
  return () => app.page.evaluate(() => (window as unknown as { __running: string[][] }).__running);
}

const usd = (u: FakeUsage, p: { input: number; output: number }) => (u.input * p.input + u.output * p.output) / 1e6;
const tokens = (u: FakeUsage) => u.input + u.output;

test('answers stream into the graph, and each step and the run show the tokens and dollars the usage and prices imply', async () => {
  const { page } = app;
  scriptRun();
  const running = await recordRunningNodes(app);
  await ask(app, 'What is 17 * 23?', '391');
  await page.getByTestId('episode-saved').waitFor({ timeout: 30_000 });

  // Every provider's answer was on screen in pieces while its step ran, then whole once done.
  const partials = await running();
  STEP_CHUNKS.forEach((chunks, i) => {
    const whole = chunks.join('');
    expect(
      partials[i]?.some((text) => text.length < whole.length && whole.startsWith(text)),
      `step ${i + 1} streamed`,
    ).toBe(true);
  });
  const nodes = page.getByTestId('graph-step');
  await page.locator('details.steps > summary').click();
  for (const [i, chunks] of STEP_CHUNKS.entries()) {
    const node = nodes.nth(i);
    expect(await node.locator('.output').textContent()).toBe(chunks.join(''));
    const stats = await node.locator('.stats').textContent();
    expect(stats).toContain(`${tokens(STEP_USAGE[i])} tok`);
    expect(stats).toContain(['$0.100', '$0.180', '$0.280'][i]);
    expect(await page.getByTestId('step-details').nth(i).locator('header').textContent()).toContain(stats);
  }
  expect(await page.getByTestId('conductor-stats').textContent()).toBe(`${tokens(CONDUCTOR_USAGE)} tok · $0.030`);

  const totalUsd = usd(CONDUCTOR_USAGE, PRICES[0]) + STEP_USAGE.reduce((sum, u, i) => sum + usd(u, PRICES[i]), 0);
  expect(totalUsd).toBeCloseTo(0.59, 12);
  const totals = page.getByTestId('run-totals');
  expect(await totals.locator('div', { hasText: 'Tokens' }).locator('dd').textContent()).toBe(
    String(tokens(CONDUCTOR_USAGE) + STEP_USAGE.reduce((n, u) => n + tokens(u), 0)),
  );
  expect(await totals.locator('div', { hasText: 'Dollars' }).locator('dd').textContent()).toBe('$0.590');
  await page.screenshot({ path: join(import.meta.dirname, '__screenshots__', 'provider-pool-desktop.png') });
  expect(await page.getByTestId('grade').textContent()).toContain('correct');

  // Each call went to its own wire format with its own key, in its own header.
  const posts = server.requests.filter((r) => r.method === 'POST');
  expect(posts.map((r) => r.path)).toEqual([
    '/v1/chat/completions',
    '/v1/chat/completions',
    '/v1/messages',
    '/v1beta/models/gemini-2.5-pro:streamGenerateContent',
  ]);
  expect(posts.map((r) => r.headers.authorization ?? r.headers['x-api-key'] ?? r.headers['x-goog-api-key'])).toEqual([
    `Bearer ${KEYS.openai}`,
    `Bearer ${KEYS.openai}`,
    KEYS.anthropic,
    KEYS.google,
  ]);

  const [line] = (await exportEpisodes(app)).trim().split('\n');
  const episode = JSON.parse(line);
  expect(episode.status).toBe('ok');
  expect(episode.totals.costUsd).toBeCloseTo(totalUsd, 12);
  expect(episode.steps.map((s: { usage: FakeUsage }) => [s.usage.input, s.usage.output])).toEqual(STEP_USAGE.map((u) => [u.input, u.output]));
  expect(app.errors).toEqual([]);
  expect(await app.cspViolations()).toEqual([]);
});

test('a wrong key: its step says so, the run is an infra error, earlier episodes are kept, and the key shows nowhere', async () => {
  const { page } = app;
  const before = episodeLines(await exportEpisodes(app)).join('\n');
  expect(episodeLines(before)).toHaveLength(1);

  await page.goto(`${app.url}/#/workers`);
  const stored = page.getByRole('listitem').filter({ hasText: `sent to ${server.url}, in the x-api-key header` });
  await stored.getByRole('button', { name: 'Remove' }).click();
  await stored.getByRole('button', { name: 'Remove it' }).click();
  await saveKey(page, slots.anthropic, WRONG_ANTHROPIC_KEY);

  server.reset();
  server.scriptModel(MODELS[0], { text: PLAN, usage: CONDUCTOR_USAGE }, { chunks: STEP_CHUNKS[0], usage: STEP_USAGE[0] });
  await ask(app, 'What is 17 * 23, again?', '391');
  await page.getByTestId('episode-saved').waitFor({ timeout: 30_000 });

  const nodes = page.getByTestId('graph-step');
  await expect.poll(() => nodes.nth(1).locator('.status').textContent(), POLL).toBe('failed');
  const message = `Anthropic rejected the key ${slots.anthropic} (401).`;
  expect(await nodes.nth(1).locator('.output').textContent()).toContain(message);
  await page.locator('details.steps > summary').click();
  expect(await page.getByTestId('step-details').nth(1).getByRole('alert').textContent()).toContain(message);
  expect(await nodes.nth(2).locator('.status').textContent()).toBe('not started');
  expect(await nodes.nth(2).locator('.output').textContent()).toBe('step 2 failed');
  expect(await page.getByTestId('step-details').nth(2).getByRole('alert').textContent()).toBe('not started: step 2 failed');
  expect(await page.getByTestId('run-totals').locator('div', { hasText: 'Steps done' }).locator('dd').textContent()).toBe('1');
  expect(await page.getByTestId('run-status').textContent()).toBe('a call failed');
  expect(await page.getByTestId('grade').textContent()).toContain('not graded');
  expect(await page.getByTestId('run-totals').locator('div', { hasText: 'Dollars' }).locator('dd').textContent()).toBe('$?');
  expect(await page.getByTestId('cost-note').textContent()).toBe('$? means unknown: a call failed before its provider said how many tokens it used.');
  await page.screenshot({ path: join(import.meta.dirname, '__screenshots__', 'wrong-key-desktop.png'), fullPage: true });
  // Anthropic answered 401 to the wrong key, which it echoed back; Gemini was never called.
  const anthropic = server.requests.filter((r) => r.path === '/v1/messages');
  expect(anthropic.map((r) => r.headers['x-api-key'])).toEqual([WRONG_ANTHROPIC_KEY]);
  expect(server.requests.some((r) => r.protocol === 'google')).toBe(false);

  const after = await exportEpisodes(app);
  const lines = episodeLines(after);
  expect(lines).toHaveLength(2);
  expect(lines[0]).toBe(before.trim());
  // Whether the refused call was billed is unknown, so the run's dollars are too, on the page and in the episode.
  expect(JSON.parse(lines[1])).toMatchObject({ status: 'infra-error', reward: { infraError: true }, totals: { costUsd: null } });
  for (const secret of [...Object.values(KEYS), WRONG_ANTHROPIC_KEY]) {
    expect(after).not.toContain(secret);
    expect(await page.content()).not.toContain(secret);
    expect(app.errors.join('\n')).not.toContain(secret);
  }
});

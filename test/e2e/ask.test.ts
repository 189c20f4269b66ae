/**
 * The first thing a user does: press Run with no keys and no network, and watch plan -> steps -> answer
 * -> episode saved: with a known plan (from an endpoint on this machine) over the demo's seeded simulated
 * workers, whose outcome is then exact; with the demo's random routing and a hostile worker response,
 * which must render inert.
 */
import { afterAll, afterEach, beforeAll, beforeEach, expect, test } from 'vitest';
import { startFakeProviderServer, type FakeProviderServer } from '../support/fake-provider-server.ts';
import { exportEpisodes, openApp, POLL, setGold, type AppPage } from './app-page.ts';

let server: FakeProviderServer;
let app: AppPage;
beforeAll(async () => {
  server = await startFakeProviderServer();
});
afterAll(() => server?.close());
beforeEach(async () => {
  app = await openApp({ allow: [server.url] });
});
afterEach(() => app?.session.close());

/** A known plan for the demo's simulated workers: Scout (a poor solver) solves, Euler checks. */
const PLAN = `Scout solves, Euler checks.
model_id = [2, 0]
subtasks = ["Solve it; answer in <answer></answer> tags.", "Check it; answer in <answer></answer> tags."]
access_list = [[], "all"]`;

test('a run over the demo workers with a known plan: exact steps, answer, grade and saved episode', async () => {
  const { page } = app;
  // The Conductor: an OpenAI-compatible endpoint on this machine that answers with the plan.
  await page.getByRole('navigation', { name: 'Pages' }).getByRole('link', { name: 'Conductor' }).click();
  await page.getByLabel('Base URL').fill(`${server.url}/v1`);
  await page.getByRole('radio', { name: /A remote OpenAI-compatible endpoint/ }).check();
  await page.getByRole('navigation', { name: 'Pages' }).getByRole('link', { name: 'Ask' }).click();
  expect(await page.getByLabel('Question', { exact: true }).inputValue()).toBe('What is 17 × 23?');
  server.script({ text: PLAN });
  await page.getByRole('button', { name: 'Run' }).click();
  await page.getByTestId('episode-saved').waitFor({ timeout: 60_000 });

  // Simulated workers answer as their seed and transcript decide: Scout gets it wrong, Euler agrees.
  expect(await page.getByTestId('conductor-text').textContent()).toBe(PLAN);
  const steps = page.getByTestId('graph-step');
  expect(await steps.locator('.worker').allTextContents()).toEqual(['Scout (cheap arithmetic checker)', 'Euler (math)']);
  expect(await steps.locator('.status').allTextContents()).toEqual(['done', 'done']);
  expect(await steps.locator('.output').allTextContents()).toEqual([
    'Working through the problem gives the result below.\n<answer>389</answer>',
    'I checked the earlier answer, 389, and it looks right to me.\n<answer>389</answer>',
  ]);
  expect(await page.getByTestId('step-details').count()).toBe(0); // folded away until asked for
  await page.getByText('Steps', { exact: true }).click();
  // The steps render on the details' toggle event, a moment after the click.
  await expect.poll(() => page.getByTestId('step-details').count(), POLL).toBe(2);
  // The answer's Markdown renders asynchronously, just after the episode is saved.
  await expect
    .poll(() => page.getByTestId('final-answer').innerText(), POLL)
    .toBe('I checked the earlier answer, 389, and it looks right to me.\n\nAnswer: 389');
  expect(await page.getByTestId('grade').textContent()).toBe('wrong · reward 0.5');
  expect(await page.getByTestId('run-totals').innerText()).toMatch(/^Steps done\n2\nTokens\n790\n/);
  // A wrong answer's reward of 0.5 is explained; the demo's dollars are said to be simulated.
  expect(await page.getByTestId('reward-note').count()).toBe(1);
  // The Conductor here is an endpoint without a price: its share of the total is unknown, and says so.
  expect(await page.getByTestId('cost-note').allTextContents()).toEqual([
    "$? means unknown: the Conductor's calls have no price.",
    'Simulated prices: the workers here are simulated, so no money was spent.',
  ]);
  // The run happened off the page's thread, in the Conductor worker (a blob: URL, named on creation).
  expect(await Promise.all(page.workers().map((w) => w.evaluate(() => self.name)))).toEqual(['conductor']);
  expect(app.errors).toEqual([]);
  expect(await app.cspViolations()).toEqual([]);

  const [line, conversation, ...more] = (await exportEpisodes(app)).trim().split('\n');
  expect(more).toEqual([]);
  expect(JSON.parse(conversation)).toMatchObject({ type: 'conversation', title: 'What is 17 × 23?' });
  expect(JSON.parse(line)).toMatchObject({
    status: 'ok',
    task: { question: 'What is 17 × 23?', kind: 'number', answer: '391' },
    completion: { text: PLAN },
    steps: [
      { workerId: 'sim-scout', output: 'Working through the problem gives the result below.\n<answer>389</answer>' },
      { workerId: 'sim-euler', access: 'all', output: 'I checked the earlier answer, 389, and it looks right to me.\n<answer>389</answer>' },
    ],
    final: 'I checked the earlier answer, 389, and it looks right to me.\n<answer>389</answer>',
    reward: { value: 0.5, correct: false, format: true, details: { extracted: '389', gold: '391' } },
  });
});

test('a worker response with script tags, event handlers and javascript: links renders inert', async () => {
  const { page } = app;
  // Simulated workers answer with the gold answer (or a near miss that still contains it), so a hostile
  // gold answer becomes a hostile worker response.
  const payload =
    '<script>window.__pwned = 1</script><img src=x onerror="window.__pwned = 2">' +
    '[click](javascript:window.__pwned=3) <svg onload="window.__pwned = 4"></svg> [ok](https://example.com)';
  await setGold(page, payload, 'exact');
  await page.getByRole('button', { name: 'Run' }).click();
  await page.getByTestId('episode-saved').waitFor({ timeout: 60_000 });
  // With no Conductor chosen and no hardware GPU, the demo routes at random.
  expect(await page.getByTestId('conductor-text').textContent()).toMatch(/route at random[\s\S]*model_id = \[/);
  const answer = page.getByTestId('final-answer');
  await expect.poll(() => answer.textContent(), POLL).toContain('window.__pwned');
  const hostile = await answer.evaluate((el) => ({
    scripts: el.querySelectorAll('script').length,
    handlers: [...el.querySelectorAll('*')].filter((n) => [...n.attributes].some((a) => a.name.startsWith('on'))).length,
    jsLinks: [...el.querySelectorAll('a')].filter((a) => a.getAttribute('href')?.startsWith('javascript')).length,
    links: [...new Set([...el.querySelectorAll('a[href^="https:"]')].map((a) => `${a.getAttribute('target')} ${a.getAttribute('rel')}`))],
  }));
  // The response may quote the payload more than once (a checker repeats the earlier answer).
  expect(hostile).toEqual({ scripts: 0, handlers: 0, jsLinks: 0, links: ['_blank noopener noreferrer'] });
  await page.waitForTimeout(200); // let any handler that slipped through fire before checking
  expect(await page.evaluate(() => (window as unknown as { __pwned?: number }).__pwned)).toBeUndefined();
});

test('Stop ends a run early; the stopped episode is still saved', async () => {
  const { page } = app;
  await page.getByRole('button', { name: 'Run' }).click();
  await page.getByTestId('conductor-text').waitFor();
  await page.getByRole('button', { name: 'Stop' }).click();
  await page.getByTestId('episode-saved').waitFor({ timeout: 30_000 });
  expect(await page.getByTestId('run-status').textContent()).toBe('stopped');
  expect(await page.getByRole('button', { name: 'Run' }).isEnabled()).toBe(true);
});

test('TeX in an answer renders as MathML, with KaTeX loaded on demand and no CSP violation', async () => {
  const { page } = app;
  await page.getByRole('button', { name: 'Write $\\frac{6}{8}$ in lowest terms.' }).click();
  expect(await page.getByTestId('gold-chip').innerText()).toMatch(/^Graded against\s+\\frac\{3\}\{4\}/);
  await page.getByRole('button', { name: 'Run' }).click();
  await page.getByTestId('episode-saved').waitFor({ timeout: 60_000 });
  const math = page.getByTestId('final-answer').locator('math').first();
  await math.waitFor();
  expect(await math.locator('mfrac').count()).toBeGreaterThan(0);
  expect(await app.cspViolations()).toEqual([]);
});

test('an error thrown in the Conductor worker reaches the page with its code', async () => {
  const { page } = app;
  // A stored pool with a replay worker and no recorded answers imported: building it throws in the worker.
  await page.evaluate(() => localStorage.setItem('baton.pool', JSON.stringify([{ id: 'tab-model', provider: 'replay', model: 'gpt-4-1106-preview' }])));
  await page.reload();
  await page.getByRole('button', { name: 'Run' }).click();
  const alert = page.getByRole('alert');
  await alert.waitFor();
  // Without the comlink transfer handler the page would only see a plain Error, read as a bug ('internal').
  expect(await alert.getAttribute('data-code')).toBe('run/config');
  expect(await alert.textContent()).toContain('tab-model');
});

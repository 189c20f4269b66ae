/**
 * The first thing a user does: press Run with no keys and no network, and watch plan -> steps -> answer
 * -> episode saved. Then the same path with a hostile worker response, which must render inert.
 */
import { afterEach, beforeEach, expect, test } from 'vitest';
import { openApp, POLL, type AppPage } from './app-page.ts';

let app: AppPage;
beforeEach(async () => {
  app = await openApp();
});
afterEach(() => app?.session.close());

test('the offline demo runs: Conductor plan, workflow graph, final answer, episode saved', async () => {
  const { page } = app;
  await page.getByRole('button', { name: 'Run' }).click();
  await page.getByTestId('workflow-graph').waitFor();
  expect(await page.getByTestId('conductor-text').textContent()).toMatch(/random[\s\S]*model_id = \[/);
  const steps = await page.getByTestId('graph-step').count();
  expect(steps).toBeGreaterThanOrEqual(1);
  await page.getByTestId('episode-saved').waitFor({ timeout: 60_000 });
  // The answer's Markdown renders asynchronously, just after the episode is saved.
  await expect.poll(() => page.getByTestId('final-answer').textContent(), POLL).toMatch(/Answer:/);
  const grade = await page.getByTestId('grade').textContent();
  expect(grade).toMatch(/correct|wrong/);
  // A wrong answer's reward of 0.5 is explained; the demo's dollars are said to be simulated.
  expect(await page.getByTestId('reward-note').count()).toBe(grade?.includes('wrong') ? 1 : 0);
  expect(await page.getByTestId('cost-note').textContent()).toBe('Simulated prices: the workers here are simulated, so no money was spent.');
  expect(await page.getByTestId('step-details').count()).toBe(steps);
  // The run happened off the page's thread, in the Conductor worker (a blob: URL, named on creation).
  expect(await Promise.all(page.workers().map((w) => w.evaluate(() => self.name)))).toEqual(['conductor']);
  expect(app.errors).toEqual([]);
  expect(await app.cspViolations()).toEqual([]);
});

test('a worker response with script tags, event handlers and javascript: links renders inert', async () => {
  const { page } = app;
  // Simulated workers answer with the gold answer (or a near miss that still contains it), so a hostile
  // gold answer becomes a hostile worker response.
  const payload =
    '<script>window.__pwned = 1</script><img src=x onerror="window.__pwned = 2">' +
    '[click](javascript:window.__pwned=3) <svg onload="window.__pwned = 4"></svg> [ok](https://example.com)';
  await page.getByLabel('Gold answer').fill(payload);
  await page.getByLabel('Kind').selectOption('exact');
  await page.getByRole('button', { name: 'Run' }).click();
  await page.getByTestId('episode-saved').waitFor({ timeout: 60_000 });
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
  expect(await page.getByRole('heading', { name: /Final answer/ }).textContent()).toContain('stopped');
  expect(await page.getByRole('button', { name: 'Run' }).isEnabled()).toBe(true);
});

test('TeX in an answer renders as MathML, with KaTeX loaded on demand and no CSP violation', async () => {
  const { page } = app;
  await page.getByLabel('Sample').selectOption({ index: 3 });
  expect(await page.getByLabel('Gold answer').inputValue()).toBe('\\frac{3}{4}');
  await page.getByRole('button', { name: 'Run' }).click();
  await page.getByTestId('episode-saved').waitFor({ timeout: 60_000 });
  const math = page.getByTestId('final-answer').locator('math').first();
  await math.waitFor();
  expect(await math.locator('mfrac').count()).toBeGreaterThan(0);
  expect(await app.cspViolations()).toEqual([]);
});

test('an error thrown in the Conductor worker reaches the page with its code', async () => {
  const { page } = app;
  // A stored pool naming a provider that cannot serve as a worker yet: building it throws in the worker.
  await page.evaluate(() => localStorage.setItem('baton.pool', JSON.stringify([{ id: 'tab-model', provider: 'webllm', model: 'x' }])));
  await page.reload();
  await page.getByRole('button', { name: 'Run' }).click();
  const alert = page.getByRole('alert');
  await alert.waitFor();
  // Without the comlink transfer handler the page would only see a plain Error and its fallback code.
  expect(await alert.getAttribute('data-code')).toBe('provider/unsupported');
  expect(await alert.textContent()).toContain('tab-model');
});

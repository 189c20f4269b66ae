/**
 * What a user trying to break the page would type or get back: a worker answering about a megabyte of
 * text, and odd questions (empty, 50,000 characters, emoji and right-to-left scripts, Markdown and HTML).
 * The page must keep answering clicks, show the text, run nothing it was sent, and never scroll sideways
 * at 1280 wide. One OpenAI-compatible worker on the fake provider server, also playing the Conductor.
 */
import { join } from 'node:path';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { startFakeProviderServer, type FakeProviderServer } from '../support/fake-provider-server.ts';
import { ask, openAppWithOneWorker, POLL, scrollsSideways, type AppPage } from './app-page.ts';

const PLAN = 'One step.\nmodel_id = [0]\nsubtasks = ["Answer the question."]\naccess_list = [[]]';

let server: FakeProviderServer;
let app: AppPage;

beforeAll(async () => {
  server = await startFakeProviderServer();
  app = await openAppWithOneWorker(server.url);
});
afterAll(async () => {
  await app?.session.close();
  await server?.close();
});

/** Milliseconds from a click on a step's "What the worker saw" to the page showing it toggled. */
async function clickLatencyMs(app: AppPage): Promise<number> {
  const details = app.page.getByTestId('step-details').first().locator('details');
  const started = Date.now();
  const wasOpen = await details.evaluate((d: HTMLDetailsElement) => d.open);
  await details.locator('summary').click({ timeout: 5_000 });
  await details.evaluate(
    (d: HTMLDetailsElement, open) => new Promise<void>((done) => (d.open === open ? done() : d.addEventListener('toggle', () => done(), { once: true }))),
    !wasOpen,
  );
  return Date.now() - started;
}

test('a worker answering about a megabyte: the page answers clicks while it streams and after, shows it all, and keeps its width', async () => {
  const { page } = app;
  // ~1 MB of Markdown: paragraphs, a list, an unbroken 5,000-character word and a code line as long.
  const paragraph = (i: number) => `Paragraph ${i}: the workers agree that the answer follows from the *previous* steps, item by item.\n\n- point ${i}\n\n`;
  const body = Array.from({ length: 9_000 }, (_, i) => paragraph(i)).join('');
  const text = `${'y'.repeat(5_000)}\n\n\`\`\`\n${'const x = 1; '.repeat(400)}\n\`\`\`\n\n${body}The last line <answer>42</answer>`;
  expect(text.length).toBeGreaterThan(1_000_000);
  const chunks = text.match(/[\s\S]{1,8192}/g)!;
  server.script({ text: PLAN }, { chunks, chunkDelayMs: 10 });

  await ask(app, 'Say a lot about 6 * 7.', '42');
  await expect.poll(() => page.getByTestId('graph-step').locator('.status').textContent(), POLL).toBe('running');
  await page.locator('details.steps > summary').click();
  await page.getByTestId('step-details').first().waitFor();
  expect(await clickLatencyMs(app)).toBeLessThan(1_000);
  expect(await page.getByTestId('episode-saved').count()).toBe(0); // still streaming when clicked

  // The moment the step ends its whole answer is rendered as Markdown: the page must still answer.
  await page.waitForFunction(() => document.querySelector('[data-testid=graph-step] .status')?.textContent === 'done', undefined, {
    polling: 10,
    timeout: 30_000,
  });
  expect(await clickLatencyMs(app)).toBeLessThan(1_000);
  await page.getByTestId('episode-saved').waitFor({ timeout: 30_000 });
  expect(await page.getByTestId('grade').textContent()).toContain('correct');

  // The head is rendered as Markdown, the rest is there as plain text on request; every character shows.
  const answer = page.getByTestId('final-answer');
  await expect.poll(() => answer.locator('li').count(), POLL).toBeGreaterThan(100);
  expect(await answer.textContent()).toMatch(new RegExp(`Showing the first [\\d,]+ of ${text.length.toLocaleString('en')} characters`));
  const started = Date.now();
  await answer.getByRole('button', { name: 'Show the rest as plain text' }).click();
  await expect.poll(() => answer.textContent(), POLL).toContain('The last line <answer>42</answer>');
  expect(Date.now() - started).toBeLessThan(1_000);
  expect(await clickLatencyMs(app)).toBeLessThan(1_000);
  const shown = await answer.evaluate((el) => el.textContent!.length);
  expect(shown).toBeGreaterThan(text.length * 0.95);
  expect(await page.getByTestId('graph-step').locator('.output').textContent()).toContain('The last line');
  expect(await scrollsSideways(page)).toBe(false);
  await page.screenshot({ path: join(import.meta.dirname, '__screenshots__', 'huge-output-desktop.png') });
  await page.setViewportSize({ width: 390, height: 800 });
  expect(await scrollsSideways(page)).toBe(false);
  await page.setViewportSize({ width: 1280, height: 800 });
  expect(app.errors).toEqual([]);
});

test('odd questions: empty is refused, long, emoji, right-to-left and HTML ones run as plain text and keep the page whole', async () => {
  const { page } = app;
  server.reset();
  await ask(app, '');
  expect(await page.getByLabel('Question', { exact: true }).evaluate((el: HTMLTextAreaElement) => el.validity.valueMissing)).toBe(true);
  expect(await page.getByRole('button', { name: 'Run' }).isEnabled()).toBe(true);
  await page.waitForTimeout(200);
  expect(server.requests).toEqual([]);

  const questions = [
    `Summarise this: ${'Lorem ipsum dolor sit amet, consectetur adipiscing elit. '.repeat(900)}`.slice(0, 49_999) + '?',
    '👩🏽‍🔬🧪➕🧫❓ 🇺🇳',
    'ما هو حاصل ضرب ٦ في ٧؟ מה התשובה? and in English: what is 6 × 7?',
    '# Heading\n<img src=x onerror="window.__pwned = 1"><script>window.__pwned = 2</script>\n[link](javascript:window.__pwned=3) **bold** </textarea><b>',
  ];
  for (const question of questions) {
    server.reset();
    // The worker quotes the question back, so it also passes through the answer's Markdown renderer.
    server.script({ text: PLAN }, { text: `You asked: ${question}` });
    await ask(app, question);
    await page.getByTestId('episode-saved').waitFor({ timeout: 30_000 });
    expect(
      server.requests.filter((r) => r.method === 'POST').map((r) => JSON.stringify(r.body.messages).includes(JSON.stringify(question).slice(1, -1))),
    ).toEqual([true, true]);
    await page.locator('details.steps > summary').click();
    expect(await page.getByTestId('step-details').locator('pre').first().textContent()).toContain(question);
    await expect.poll(() => page.getByTestId('final-answer').textContent(), POLL).toContain('You asked:');
    expect(await page.getByTestId('final-answer').locator('script, img, a[href^="javascript"]').count()).toBe(0);
    expect(await scrollsSideways(page)).toBe(false);
  }
  await page.getByRole('navigation', { name: 'Pages' }).getByRole('link', { name: 'Episodes' }).click();
  const links = page.getByTestId('episode-list').getByRole('link');
  await expect.poll(() => links.locator('.q').allTextContents(), POLL).toEqual(expect.arrayContaining(questions));
  expect(await scrollsSideways(page)).toBe(false);
  // A 50,000-character question is clamped to a few lines in the list, not a wall of text.
  for (const height of await links.evaluateAll((els) => els.map((el) => el.getBoundingClientRect().height))) expect(height).toBeLessThan(200);
  await page.screenshot({ path: join(import.meta.dirname, '__screenshots__', 'odd-questions-episodes-desktop.png') });
  await page.setViewportSize({ width: 390, height: 800 });
  expect(await scrollsSideways(page)).toBe(false);
  await links.first().click();
  await page.getByTestId('episode-detail').waitFor();
  expect(await scrollsSideways(page)).toBe(false);
  await page.screenshot({ path: join(import.meta.dirname, '__screenshots__', 'odd-question-detail-phone.png') });
  await page.waitForTimeout(100); // let any handler that slipped through fire before checking
  expect(await page.evaluate(() => (window as unknown as { __pwned?: number }).__pwned)).toBeUndefined();
  expect(app.errors).toEqual([]);
  expect(await app.cspViolations()).toEqual([]);
});

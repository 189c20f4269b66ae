/**
 * The Ask page as a conversation: follow-ups over a stand-in provider carry the earlier turns to the Conductor
 * and the workers; the conversation survives a reload, travels in the Episodes page's export and comes back
 * with an import; the list renames, searches and deletes (with a warning); an episode of an earlier version
 * still opens; dark mode follows the system until toggled; and a phone (390 px) gets the composer first.
 * Screenshots of a conversation at both sizes, light and dark, go to test/e2e/__screenshots__/ for a person to look at.
 */
import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, expect, test } from 'vitest';
import type { Episode } from '../../src/core/episodes/index.ts';
import { makeEpisode } from '../support/episode-factory.ts';
import { seededRandom } from '../../src/core/random.ts';
import { startFakeProviderServer, type FakeProviderServer } from '../support/fake-provider-server.ts';
import { exportEpisodes, importEpisodes, openApp, openAppWithOneWorker, POLL, scrollsSideways, storedEpisodes, type AppPage } from './app-page.ts';

const OUT = join(import.meta.dirname, '__screenshots__');
const PLAN = 'One step.\nmodel_id = [0]\nsubtasks = ["Answer the question."]\naccess_list = [[]]';

let server: FakeProviderServer;
let app: AppPage | undefined;
beforeAll(async () => {
  server = await startFakeProviderServer();
  await mkdir(OUT, { recursive: true });
});
afterEach(async () => {
  await app?.session.close();
  app = undefined;
  server.reset();
});
afterAll(() => server?.close());

/** Types a question into the composer and sends it with Enter; waits for its turn's episode to be saved. */
async function askInConversation(page: Page, question: string): Promise<void> {
  const before = await page.getByTestId('episode-saved').count();
  await page.getByLabel('Question', { exact: true }).fill(question);
  await page.getByLabel('Question', { exact: true }).press('Enter');
  await expect.poll(() => page.getByTestId('episode-saved').count(), { timeout: 60_000 }).toBe(before + 1);
}

/** All the text of a recorded request's messages. */
const said = (request: { body: unknown }) => JSON.stringify((request.body as { messages: unknown }).messages);

test('a conversation of three turns: follow-ups carry the thread; it survives a reload and an export and import', async () => {
  app = await openAppWithOneWorker(server.url);
  const { page } = app;
  await page.getByRole('navigation', { name: 'Pages' }).getByRole('link', { name: 'Ask' }).click();

  server.script({ text: PLAN }, { text: 'It is <answer>391</answer>.\n\n```python\nprint(17 * 23)\n```' });
  await askInConversation(page, 'What is 17 × 23?');
  expect(await page.getByTestId('conversation-title').innerText()).toBe('What is 17 × 23?');
  expect(page.url()).toMatch(/#\/ask\/[0-9a-f-]{36}$/);
  // The first question has no thread: neither the Conductor nor the worker read one.
  expect(server.requests.map(said).some((m) => m.includes('conversation_so_far'))).toBe(false);
  // The answer tag inside the sentence keeps its place in it, the answer in bold.
  const sentence = page.getByTestId('final-answer').locator('p').first();
  expect(await sentence.innerText()).toBe('It is 391.');
  expect(await sentence.locator('strong').innerText()).toBe('391');
  // Code in an answer gets a bar with its language and a Copy button.
  const bar = page.getByTestId('final-answer').locator('.code-bar');
  await bar.waitFor();
  expect(await bar.innerText()).toMatch(/^python\s+Copy$/);

  server.script({ text: PLAN }, { text: 'Twice that is <answer>782</answer>.' });
  await askInConversation(page, 'And twice that?');
  const [conductor2, worker2] = server.requests.slice(2).map(said);
  for (const request of [conductor2, worker2]) {
    expect(request).toContain('conversation_so_far');
    expect(request).toContain('Question: What is 17 × 23?');
    expect(request).toContain('It is <answer>391</answer>.');
    expect(request).toContain('And twice that?');
  }

  server.script({ text: PLAN }, { text: 'Half of 782 is <answer>391</answer>.' });
  await askInConversation(page, 'Now halve it.');
  const worker3 = said(server.requests[5]);
  expect(worker3).toContain('Question: And twice that?');
  expect(worker3).toContain('Twice that is <answer>782</answer>.');

  const turnQuestions = () => page.getByTestId('turn-question').allInnerTexts();
  expect(await turnQuestions()).toEqual(['What is 17 × 23?', 'And twice that?', 'Now halve it.']);
  // Each plan folded away once its answer came, its line naming the workers.
  expect(await page.locator('details.plan').evaluateAll((ds) => ds.map((d) => (d as HTMLDetailsElement).open))).toEqual([false, false, false]);
  expect(await page.locator('details.plan > summary').last().innerText()).toBe('Plan vLLM');
  await page.setViewportSize({ width: 1280, height: 900 });
  await page.screenshot({ path: join(OUT, 'conversation-desktop.png') });

  await page.reload();
  await expect.poll(turnQuestions, POLL).toEqual(['What is 17 × 23?', 'And twice that?', 'Now halve it.']);
  expect(await page.getByTestId('conversation-link').allInnerTexts()).toEqual([expect.stringMatching(/^What is 17 × 23\?\nToday$/)]);
  expect(app.errors).toEqual([]);

  const lines = (await exportEpisodes(app))
    .trim()
    .split('\n')
    .map((l) => JSON.parse(l) as Episode & { type?: string; title?: string });
  const episodes = lines.filter((l) => l.type === undefined);
  const [conversation] = lines.filter((l) => l.type === 'conversation');
  expect(episodes.map((e) => e.conversation?.turn).sort()).toEqual([0, 1, 2]);
  expect(new Set(episodes.map((e) => e.conversation?.id))).toEqual(new Set([conversation.id]));
  expect(conversation.title).toBe('What is 17 × 23?');

  // Into a fresh browser: the conversation comes back whole.
  const text = lines.map((l) => JSON.stringify(l)).join('\n');
  await app.session.close();
  app = await openApp();
  expect(await importEpisodes(app, 'conversation.jsonl', text)).toMatch(/Imported 3.*1 conversation/s);
  await app.page.goto(`${app.url}/#/ask`);
  await app.page.getByTestId('conversation-link').click();
  await expect.poll(() => app!.page.getByTestId('turn-question').allInnerTexts(), POLL).toEqual(['What is 17 × 23?', 'And twice that?', 'Now halve it.']);
});

test('rename, search, new with Ctrl+K, delete with a warning; the keyboard shortcuts are listed', async () => {
  app = await openApp();
  const { page } = app;
  await askInConversation(page, 'What is 17 × 23?');
  await page.keyboard.press('Control+k');
  await expect.poll(() => page.getByTestId('conversation-title').innerText(), POLL).toBe('New conversation');
  expect(await page.evaluate(() => document.activeElement?.getAttribute('aria-label'))).toBe('Question');
  await askInConversation(page, 'Which planet is known as the Red Planet?');
  const titles = () => page.getByTestId('conversation-link').locator('.title').allInnerTexts();
  expect(await titles()).toEqual(['Which planet is known as the Red Planet?', 'What is 17 × 23?']);

  await page.getByRole('button', { name: 'Rename' }).click();
  await page.getByLabel('Conversation title').fill('Planets');
  await page.getByLabel('Conversation title').press('Enter');
  await expect.poll(titles, POLL).toEqual(['Planets', 'What is 17 × 23?']);

  await page.getByLabel('Search conversations').fill('17');
  await expect.poll(titles, POLL).toEqual(['What is 17 × 23?']);
  // The search reads the turns too: the renamed conversation is found by its question, shown where.
  await page.getByLabel('Search conversations').fill('RED planet');
  await expect.poll(titles, POLL).toEqual(['Planets']);
  expect(await page.getByTestId('conversation-excerpt').allInnerTexts()).toEqual(['Which planet is known as the Red Planet?']);
  await page.screenshot({ path: join(OUT, 'conversation-search-desktop.png') });
  await page.getByLabel('Search conversations').fill('no turn says this');
  await expect.poll(titles, POLL).toEqual([]);
  await page.getByLabel('Search conversations').fill('');
  await expect.poll(titles, POLL).toEqual(['Planets', 'What is 17 × 23?']);

  // Delete asks first, saying what goes; Cancel keeps everything.
  await page.getByRole('button', { name: 'Delete' }).click();
  expect(await page.getByTestId('confirm').innerText()).toMatch(/Delete this conversation and its 1 answer \(their episodes too\)\?/);
  await page.getByRole('button', { name: 'Cancel' }).click();
  expect(await storedEpisodes(page)).toHaveLength(2);
  await page.getByRole('button', { name: 'Delete' }).click();
  await page.getByRole('button', { name: 'Delete it' }).click();
  await expect.poll(titles, POLL).toEqual(['What is 17 × 23?']);
  expect(await page.getByTestId('conversation-title').innerText()).toBe('New conversation');
  expect((await storedEpisodes<Episode>(page)).map((e) => e.task.question)).toEqual(['What is 17 × 23?']);

  // "/" goes to the question box; "?" lists the shortcuts.
  await page.getByRole('heading', { name: 'New conversation' }).click();
  await page.keyboard.press('/');
  expect(await page.evaluate(() => document.activeElement?.getAttribute('aria-label'))).toBe('Question');
  await page.getByRole('heading', { name: 'New conversation' }).click();
  await page.keyboard.press('?');
  expect(await page.getByTestId('shortcut-help').innerText()).toMatch(/Ctrl\+K[\s\S]*new conversation/);
  expect(app.errors).toEqual([]);
});

test('a first question whose Conductor cannot run is kept as a turn with why, also when the conversation is reopened', async () => {
  app = await openApp();
  const { page } = app;
  // A pool worker chosen as Conductor, then removed from the pool.
  await page.evaluate(() => localStorage.setItem('baton.settings', JSON.stringify({ conductor: { kind: 'pool-worker', workerId: 'gone' } })));
  await page.reload();
  await page.getByRole('heading', { name: 'Ask', level: 1 }).waitFor();
  await askInConversation(page, 'What is 2 + 2?');
  const why = /^The Conductor failed: The Conductor page's choice: no worker "gone" in the pool/;
  expect(await page.getByTestId('conductor-error').innerText()).toMatch(why);
  expect(await page.getByTestId('no-answer').innerText()).toBe("No answer: the Conductor's own call failed, so there was no plan (see above).");
  await page.screenshot({ path: join(OUT, 'conversation-conductor-failed.png') });

  await page.reload();
  await expect.poll(() => page.getByTestId('turn-question').allInnerTexts(), POLL).toEqual(['What is 2 + 2?']);
  expect(await page.getByTestId('conductor-error').innerText()).toMatch(why);
  expect(await page.getByTestId('conversation-link').allInnerTexts()).toEqual([expect.stringMatching(/^What is 2 \+ 2\?\nToday$/)]);
  expect(await storedEpisodes<Episode>(page)).toEqual([
    expect.objectContaining({ status: 'infra-error', error: expect.objectContaining({ message: expect.stringMatching(why) }) }),
  ]);

  // With a Conductor that runs, "Ask again" puts the question back, and it is answered in the same conversation.
  await page.evaluate(() => localStorage.setItem('baton.settings', JSON.stringify({ conductor: { kind: 'random-routing' } })));
  await page.reload();
  await page.getByRole('button', { name: 'Ask again' }).click();
  expect(await page.getByLabel('Question', { exact: true }).inputValue()).toBe('What is 2 + 2?');
  await page.getByLabel('Question', { exact: true }).press('Enter');
  await expect.poll(() => page.getByTestId('episode-saved').count(), { timeout: 60_000 }).toBe(2);
  expect(await page.getByTestId('turn-question').allInnerTexts()).toEqual(['What is 2 + 2?', 'What is 2 + 2?']);
  expect(await page.getByTestId('final-answer').count()).toBe(1);
  expect(await page.getByRole('button', { name: 'Ask again' }).count()).toBe(1);
  expect(app.errors).toEqual([]);
});

test('an episode stored by an earlier version (no conversation) still opens on the Episodes page', async () => {
  app = await openApp({ hash: '#/episodes' });
  const old = makeEpisode(seededRandom(7));
  delete (old as Partial<Episode>).conversation;
  expect(await importEpisodes(app, 'old.jsonl', JSON.stringify(old))).toMatch(/Imported 1/);
  await app.page.goto(`${app.url}/#/episodes/${old.id}`);
  expect(await app.page.getByTestId('episode-detail').getByRole('heading', { level: 2 }).first().innerText()).toBe(old.task.question);
  expect(app.errors).toEqual([]);
});

test('dark mode follows the system until toggled, and the choice survives a reload', async () => {
  app = await openApp();
  const { page } = app;
  const background = () => page.evaluate(() => getComputedStyle(document.body).backgroundColor);
  const light = await background();
  await page.emulateMedia({ colorScheme: 'dark' });
  const dark = await background();
  expect(dark).not.toBe(light);
  // The toggle follows the system through a media-query listener, a moment after the colours do.
  await expect.poll(() => page.getByTestId('theme-toggle').getAttribute('aria-pressed'), POLL).toBe('true');
  await page.emulateMedia({ colorScheme: 'light' });
  await page.getByTestId('theme-toggle').click();
  expect(await background()).toBe(dark);
  await page.reload();
  await page.getByRole('heading', { level: 1 }).first().waitFor();
  expect(await background()).toBe(dark);
  expect(await page.evaluate(() => document.documentElement.dataset.theme)).toBe('dark');
  await askInConversation(page, 'What is 17 × 23?');
  await page.screenshot({ path: join(OUT, 'conversation-dark-desktop.png') });
});

test('at 390 px: the composer is on the first screen, the list folds behind a button, nothing scrolls sideways', async () => {
  app = await openApp({ viewport: { width: 390, height: 844 } });
  const { page } = app;
  await page.screenshot({ path: join(OUT, 'conversation-phone-new.png') });
  const box = await page.getByLabel('Question', { exact: true }).boundingBox();
  expect(box!.y + box!.height).toBeLessThanOrEqual(844);
  expect(await page.getByLabel('Gold answer').count()).toBe(0);
  expect(await page.getByLabel('Search conversations').isVisible()).toBe(false);
  await askInConversation(page, 'What is 17 × 23?');
  await askInConversation(page, 'And twice that?');
  expect(await scrollsSideways(page)).toBe(false);
  await page.screenshot({ path: join(OUT, 'conversation-phone.png'), fullPage: false });
  await page.getByRole('button', { name: 'Conversations' }).click();
  await page.getByLabel('Search conversations').waitFor();
  await page.waitForTimeout(300); // the list slides in
  await page.screenshot({ path: join(OUT, 'conversation-phone-list.png') });
  // Found by a later turn's question, which shows under the title.
  await page.getByLabel('Search conversations').fill('twice');
  await expect.poll(() => page.getByTestId('conversation-excerpt').allInnerTexts(), POLL).toEqual(['And twice that?']);
  await page.screenshot({ path: join(OUT, 'conversation-phone-search.png') });
  await page.getByRole('button', { name: 'Close the conversation list' }).click({ position: { x: 370, y: 400 } });
  await expect.poll(() => page.getByLabel('Search conversations').isVisible(), POLL).toBe(false);
  await page.emulateMedia({ colorScheme: 'dark' });
  await page.screenshot({ path: join(OUT, 'conversation-phone-dark.png'), fullPage: true });
  expect(app.errors).toEqual([]);
});

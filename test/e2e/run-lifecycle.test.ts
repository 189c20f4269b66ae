/**
 * A run's life beyond the happy path, against one OpenAI-compatible worker on the fake provider server
 * that also plays the Conductor: Stop cuts a slow call within a second; a reload mid-run keeps what was
 * stored and the interrupted run itself; the episodes then round-trip through export and import into a
 * fresh browser profile, and bad files are refused with a message, storing nothing.
 */
import { afterAll, beforeAll, expect, test } from 'vitest';
import { startFakeProviderServer, type FakeProviderServer, type RecordedRequest } from '../support/fake-provider-server.ts';
import { ask, episodeLines, exportEpisodes, importEpisodes, openApp, openAppWithOneWorker, POLL, type AppPage } from './app-page.ts';

const PLAN = 'One step.\nmodel_id = [0]\nsubtasks = ["Answer the question."]\naccess_list = [[]]';
/** A call that would hold its connection open half a minute before answering. */
const SLOW = { text: 'Too late.', firstByteDelayMs: 30_000 };

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

/** The worker's call of the step (the second POST: the first is the Conductor's), once it has arrived. */
async function stepCall(): Promise<RecordedRequest> {
  const posts = () => server.requests.filter((r) => r.method === 'POST');
  await expect.poll(() => posts().length, POLL).toBe(2);
  return posts()[1];
}

async function runQuickly(question: string): Promise<void> {
  server.script({ text: PLAN }, { text: `The answer to "${question}" is <answer>4</answer>.` });
  await ask(app, question);
  await app.page.getByTestId('episode-saved').waitFor({ timeout: 30_000 });
}

test('Stop cuts a slow call within a second: the connection closes, the page is idle, the stopped episode is saved', async () => {
  const { page } = app;
  server.reset();
  server.script({ text: PLAN }, SLOW);
  await ask(app, 'A question the worker is slow to answer?');
  const call = await stepCall();
  await expect.poll(() => page.getByTestId('graph-step').locator('.status').textContent(), POLL).toBe('running');

  const stopped = Date.now();
  await page.getByRole('button', { name: 'Stop' }).click();
  await page.waitForFunction(() => document.querySelector('button[type=submit]')?.getAttribute('aria-disabled') === 'false', undefined, {
    timeout: 1_000,
    polling: 20,
  });
  const idleMs = Date.now() - stopped;
  await expect.poll(() => call.outcome, { timeout: 1_000, interval: 20 }).toBe('client-closed');
  expect(call.closedAt! - stopped).toBeLessThan(1_000);
  expect(idleMs).toBeLessThan(1_000);
  expect(await page.getByRole('button', { name: 'Stop' }).count()).toBe(0);

  await page.getByTestId('episode-saved').waitFor();
  expect(await page.getByTestId('run-status').textContent()).toBe('stopped');
  const [line] = (await exportEpisodes(app)).trim().split('\n');
  expect(JSON.parse(line)).toMatchObject({ status: 'aborted', task: { question: 'A question the worker is slow to answer?' } });
  expect(JSON.parse(line).error).toBeUndefined();
});

test('a reload mid-run keeps every stored episode, keeps the interrupted run as such, and the page works again', async () => {
  const { page } = app;
  await runQuickly('What is 2 + 2?');
  const before = episodeLines(await exportEpisodes(app));
  expect(before).toHaveLength(2);

  server.reset();
  server.script({ text: PLAN }, SLOW);
  await ask(app, 'What is 3 + 3, asked just before a reload?');
  const call = await stepCall();
  // The run is written as it goes: the Episodes page (same tab, the run going on) already lists it.
  await page.getByRole('navigation', { name: 'Pages' }).getByRole('link', { name: 'Episodes' }).click();
  const links = page.getByTestId('episode-list').getByRole('link');
  await expect.poll(() => links.count(), POLL).toBe(3);
  expect(await links.first().locator('.tag').textContent()).toBe('running');
  expect(call.outcome).toBe('pending');

  await page.reload();
  await expect.poll(() => call.outcome, POLL).toBe('client-closed');
  const after = episodeLines(await exportEpisodes(app));
  expect(after).toHaveLength(3);
  expect(after.slice(0, 2)).toEqual(before);
  const interrupted = JSON.parse(after[2]);
  expect(interrupted).toMatchObject({
    status: 'aborted',
    task: { question: 'What is 3 + 3, asked just before a reload?' },
    completion: { text: PLAN },
    workflow: { steps: [{ worker: 0, subtask: 'Answer the question.', access: [] }] },
    steps: [],
    error: { message: expect.stringMatching(/^Interrupted: .*reloaded/) },
  });
  expect(interrupted.reward).toBeUndefined();

  await expect.poll(() => links.first().locator('.tag').textContent(), POLL).toBe('stopped');
  await links.first().click();
  const detail = page.getByTestId('episode-detail');
  await detail.getByRole('heading', { name: 'What is 3 + 3, asked just before a reload?' }).waitFor();
  expect(await detail.getByRole('alert').textContent()).toMatch(/^Interrupted: /);
  expect(await detail.getByTestId('graph-step').locator('.status').textContent()).toBe('queued');

  server.reset();
  await runQuickly('What is 1 + 3, after the reload?');
  expect(await page.getByTestId('run-status').count()).toBe(0);
  expect(episodeLines(await exportEpisodes(app))).toHaveLength(4);
  expect(app.errors).toEqual([]);
});

test('export, then import into a fresh browser profile, gives back every episode exactly; bad files store nothing', async () => {
  const exported = await exportEpisodes(app);
  // Each question was asked in a new conversation: four episodes, then the four conversations' lines.
  expect(episodeLines(exported)).toHaveLength(4);
  expect(exported.trim().split('\n')).toHaveLength(8);
  const fresh = await openApp({ hash: '#/episodes' });
  try {
    const bad: [string, string | Buffer, RegExp][] = [
      ['notes.txt', 'These are my notes, not episodes.\n', /line 1: not valid JSON/],
      [
        'array.json',
        JSON.stringify(
          exported
            .trim()
            .split('\n')
            .map((l) => JSON.parse(l)),
        ),
        /line 1: not an episode: expected an object, got an array/,
      ],
      ['shape.jsonl', '{"question": "What is 2 + 2?", "answer": "4"}\n', /line 1: id: expected a non-empty string, got nothing/],
      ['empty.jsonl', '', /Nothing imported: the file holds no episodes \(it is empty\)/],
      ['huge.jsonl', `{"id": "huge", "final": "${'x'.repeat(10_000_000)}"}`, /line 1: version: expected 1, got nothing/],
    ];
    for (const [name, content, message] of bad) {
      const report = await importEpisodes(fresh, name, content);
      expect(report).toContain(name);
      expect(report).toMatch(message);
      if (content.length > 0) expect(report).toContain('Nothing was stored: 1 bad line(s).');
      expect(report.length).toBeLessThan(600);
      expect(await fresh.page.getByTestId('episode-stats').textContent()).toMatch(/^\s*0 episodes/);
    }

    expect(await importEpisodes(fresh, 'baton.jsonl', exported)).toMatch(/Imported 4, skipped 0 already stored, with 4 conversations\./);
    expect(await exportEpisodes(fresh)).toBe(exported);
    expect(await importEpisodes(fresh, 'again.jsonl', exported)).toMatch(/Imported 0, skipped 4 already stored\./);
    expect(fresh.errors).toEqual([]);
  } finally {
    await fresh.session.close();
  }
});

/**
 * The episode store in Chromium's own IndexedDB (the unit tests run it on fake-indexeddb): a database
 * a v1 Baton left is upgraded in place, and a full disk (the origin's quota lowered through the
 * DevTools protocol) is said plainly where the user is and loses nothing already stored.
 */
import { afterEach, expect, test } from 'vitest';
import type { Episode } from '../../src/core/episodes/index.ts';
import { makeEpisodes } from '../support/episode-factory.ts';
import { exportEpisodes, importEpisodes, openApp, POLL, type AppPage } from './app-page.ts';

let app: AppPage;
afterEach(() => app?.session.close());

const FULL =
  "No room left to save episodes in this browser's storage for Baton; nothing from this save was stored. " +
  'Export your episodes (Export on the Episodes page), then delete old ones and try again.';

const jsonl = (episodes: Episode[]) => episodes.map((ep) => JSON.stringify(ep)).join('\n') + '\n';
const byId = (a: Episode, b: Episode) => (a.id < b.id ? -1 : 1);

/**
 * Runs in the page: fills what is left of the origin's quota with another database (other data of
 * the site, or a full disk), in ever smaller random chunks until not even 256 bytes fit. Returns the bytes written.
 */
async function fillStorage(): Promise<number> {
  const db = await new Promise<IDBDatabase>((resolve, reject) => {
    const request = indexedDB.open('filler', 1);
    request.onupgradeneeded = () => request.result.createObjectStore('chunks', { autoIncrement: true });
    request.onsuccess = () => resolve(request.result);
    request.onerror = () => reject(request.error);
  });
  const put = (bytes: number) =>
    new Promise<boolean>((resolve) => {
      const tx = db.transaction('chunks', 'readwrite');
      // Random text, so that compression cannot make room.
      tx.objectStore('chunks').put(Array.from({ length: bytes }, () => String.fromCharCode(33 + Math.floor(Math.random() * 90))).join(''));
      tx.oncomplete = () => resolve(true);
      tx.onabort = () => resolve(false);
    });
  let written = 0;
  for (let chunk = 1 << 20; chunk >= 256; chunk >>= 1) while (await put(chunk)) written += chunk;
  db.close();
  return written;
}

/** Runs in the page: the episode database exactly as Baton's schema v1 laid it out, holding `episodes`. */
async function writeV1Database(episodes: Episode[]): Promise<void> {
  const db = await new Promise<IDBDatabase>((resolve, reject) => {
    const request = indexedDB.open('baton', 1);
    request.onupgradeneeded = () => {
      const store = request.result.createObjectStore('episodes', { keyPath: 'id' });
      store.createIndex('byTime', ['createdAt', 'id']);
      store.createIndex('byDataset', ['task.dataset', 'createdAt', 'id']);
      store.createIndex('byTag', 'tags', { multiEntry: true });
      store.createIndex('byGroup', ['group', 'createdAt', 'id']);
      store.createIndex('byConductorModel', ['conductor.model', 'createdAt', 'id']);
    };
    request.onsuccess = () => resolve(request.result);
    request.onerror = () => reject(request.error);
  });
  const tx = db.transaction('episodes', 'readwrite');
  for (const ep of episodes) tx.objectStore('episodes').put(ep);
  await new Promise((resolve, reject) => {
    tx.oncomplete = resolve;
    tx.onerror = () => reject(tx.error);
  });
  db.close();
}

test('a database a v1 Baton left is upgraded in place: every episode kept, the status and conversation indexes built over them', async () => {
  const episodes = makeEpisodes(40, 23);
  const budget = episodes.filter((ep) => ep.status === 'budget');
  expect(budget.length).toBeGreaterThan(0);
  app = await openApp({ hash: '#/episodes', prepare: (page) => page.evaluate(writeV1Database, episodes) });
  const { page } = app;
  await expect.poll(() => page.getByTestId('episode-stats').textContent(), POLL).toMatch(/^\s*40 episodes/);
  const schema = await page.evaluate(async () => {
    const db = await new Promise<IDBDatabase>((resolve, reject) => {
      const request = indexedDB.open('baton');
      request.onsuccess = () => resolve(request.result);
      request.onerror = () => reject(request.error);
    });
    const indexes = [...db.transaction('episodes').objectStore('episodes').indexNames];
    db.close();
    return { version: db.version, indexes };
  });
  expect(schema).toEqual({ version: 3, indexes: ['byConductorModel', 'byConversation', 'byDataset', 'byGroup', 'byStatus', 'byTag', 'byTime'] });

  await page.getByLabel('Status').selectOption('budget');
  await expect.poll(() => page.getByTestId('episode-stats').textContent(), POLL).toMatch(new RegExp(`^\\s*${budget.length} episodes?`));
  expect(await page.getByTestId('episode-list').getByRole('link').count()).toBe(budget.length);
  await page.getByLabel('Status').selectOption('');
  const exported = (await exportEpisodes(app))
    .trim()
    .split('\n')
    .map((line) => JSON.parse(line) as Episode);
  expect(exported.sort(byId)).toEqual([...episodes].sort(byId));
  expect(app.errors).toEqual([]);
});

test('a full disk: each save says so where the user is, and nothing already stored is lost', async () => {
  app = await openApp({
    hash: '#/episodes',
    // Chromium applies a quota override to the databases opened after it, so it comes before the app.
    prepare: async (page) => {
      const cdp = await page.context().newCDPSession(page);
      await cdp.send('Storage.overrideQuotaForOrigin', { origin: new URL(page.url()).origin, quotaSize: 2_000_000 });
    },
  });
  const { page } = app;
  const stored = makeEpisodes(20, 29);
  const more = makeEpisodes(20, 31);
  expect(await importEpisodes(app, 'stored.jsonl', jsonl(stored))).toMatch(/Imported 20/);
  expect(await page.evaluate(fillStorage)).toBeGreaterThan(1_000_000);

  // An import on the Episodes page.
  await page.locator('input[type=file]').setInputFiles({ name: 'more.jsonl', mimeType: 'application/x-ndjson', buffer: Buffer.from(jsonl(more)) });
  await expect.poll(() => page.getByRole('alert').allTextContents(), POLL).toEqual([FULL]);
  expect(await page.getByTestId('episode-stats').textContent()).toMatch(/^\s*20 episodes/);

  // A run on the Ask page: its answer is shown, and not said to be saved.
  await page.getByRole('navigation', { name: 'Pages' }).getByRole('link', { name: 'Ask' }).click();
  await page.getByRole('button', { name: 'Run' }).click();
  const alert = page.getByRole('alert');
  await alert.waitFor({ timeout: 60_000 });
  expect(await alert.getAttribute('data-code')).toBe('store/quota');
  expect(await alert.textContent()).toBe(FULL);
  expect(await page.getByTestId('final-answer').count()).toBe(1);
  expect(await page.getByTestId('episode-saved').count()).toBe(0);

  // Nothing stored before was lost, and nothing of the failed saves was kept.
  const exported = (await exportEpisodes(app))
    .trim()
    .split('\n')
    .map((line) => JSON.parse(line) as Episode);
  expect(exported.sort(byId)).toEqual([...stored].sort(byId));

  // Once there is room again, the same import goes through.
  await page.evaluate(() => new Promise((resolve) => (indexedDB.deleteDatabase('filler').onsuccess = resolve)));
  expect(await importEpisodes(app, 'more.jsonl', jsonl(more))).toMatch(/Imported 20/);
  // The list reloads after the import reports: wait for its stats rather than race them.
  await expect.poll(() => page.getByTestId('episode-stats').textContent(), POLL).toMatch(/^\s*40 episodes/);
  expect(app.errors).toEqual([]);
});

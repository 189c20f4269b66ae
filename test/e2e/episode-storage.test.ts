/**
 * The episode store in Chromium's own IndexedDB (the unit tests run it on fake-indexeddb): a database
 * a v1 Baton left is upgraded in place.
 */
import { afterEach, expect, test } from 'vitest';
import type { Episode } from '../../src/core/episodes/index.ts';
import { makeEpisodes } from '../support/episode-factory.ts';
import { exportEpisodes, openApp, POLL, type AppPage } from './app-page.ts';

let app: AppPage;
afterEach(() => app?.session.close());

const byId = (a: Episode, b: Episode) => (a.id < b.id ? -1 : 1);

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

test('a database a v1 Baton left is upgraded in place: every episode kept, the status index built over them', async () => {
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
  expect(schema).toEqual({ version: 2, indexes: ['byConductorModel', 'byDataset', 'byGroup', 'byStatus', 'byTag', 'byTime'] });

  await page.getByLabel('Status').selectOption('budget');
  await expect.poll(() => page.getByTestId('episode-stats').textContent(), POLL).toMatch(new RegExp(`^\\s*${budget.length} episodes?`));
  expect(await page.getByTestId('episode-list').getByRole('link').count()).toBe(budget.length);
  await page.getByLabel('Status').selectOption('');
  const exported = (await exportEpisodes(app)).trim().split('\n').map((line) => JSON.parse(line) as Episode);
  expect(exported.sort(byId)).toEqual([...episodes].sort(byId));
  expect(app.errors).toEqual([]);
});

import { describe, expect, it } from 'vitest';
import { EPISODE_DB_VERSION, IdbEpisodeStore, openEpisodeDb } from '../../../../src/core/episodes/index.ts';
import { makeEpisodes } from '../../../support/episode-factory.ts';
import { freshIndexedDb, limitStorage } from './fake-idb.ts';
import { describeStoreContract } from './store-contract.ts';

describeStoreContract('IndexedDB store', () => IdbEpisodeStore.open(freshIndexedDb()));

describe('IndexedDB store schema', () => {
  it('upgrades a filled v1 database to v2: every episode intact, the new status index built over them', async () => {
    const idb = freshIndexedDb();
    const episodes = makeEpisodes(120, 13);
    const v1 = await IdbEpisodeStore.open({ ...idb, version: 1 });
    await v1.putMany(episodes);
    // v1 has no status index: the filter still works, by checking each episode.
    const budget = episodes.filter((e) => e.status === 'budget').map((e) => e.id);
    expect(budget.length).toBeGreaterThan(0);
    expect((await v1.list({ filter: { status: 'budget' }, limit: 500, order: 'oldest' })).episodes.map((e) => e.id).sort()).toEqual(budget.sort());
    await v1.close();

    const db = await openEpisodeDb(idb);
    expect(db.version).toBe(EPISODE_DB_VERSION);
    expect(db.version).toBe(3);
    const statusKeys = await db.getAllKeysFromIndex('episodes', 'byStatus', idb.IDBKeyRange.bound(['budget'], ['budget', []]));
    expect(statusKeys.sort()).toEqual(budget.sort());
    db.close();

    const v2 = await IdbEpisodeStore.open(idb);
    expect(await v2.count()).toBe(120);
    expect(await v2.count({ status: 'budget' })).toBe(budget.length);
    for (const ep of episodes) expect(await v2.get(ep.id)).toEqual(ep);
    await v2.close();
  });

  it('refuses to open at a version that has no migration', async () => {
    await expect(openEpisodeDb({ ...freshIndexedDb(), version: 4 })).rejects.toMatchObject({ code: 'internal' });
  });
});

describe('IndexedDB store when storage is full', () => {
  it('throws store/quota saying what to do, and the failed batch leaves no trace', async () => {
    const idb = freshIndexedDb();
    const store = await IdbEpisodeStore.open(idb);
    const [kept, ...batch] = makeEpisodes(6, 17);
    await store.put(kept);
    const size = (ep: object) => JSON.stringify(ep).length;
    // Room for `kept` and two more of the batch, not for all five.
    const unlimit = await limitStorage(idb.indexedDB, size(kept) + size(batch[0]) + size(batch[1]) + 1);
    try {
      const error = await store.putMany(batch).then(
        () => null,
        (e: unknown) => e,
      );
      expect(error).toMatchObject({ code: 'store/quota' });
      expect((error as Error).message).toMatch(/export/i);
      expect((error as Error).message).toMatch(/delete old/i);
      expect(((error as Error).cause as DOMException).name).toBe('QuotaExceededError');
      expect(await store.count()).toBe(1);
      expect(await store.get(kept.id)).toEqual(kept);
      for (const ep of batch) expect(await store.get(ep.id)).toBeUndefined();
      // Still usable: what fits is saved.
      await store.put(batch[0]);
      expect(await store.count()).toBe(2);
    } finally {
      unlimit();
    }
    await store.close();
  });
});

describe('IndexedDB store export', () => {
  it('reads in batches: an episode deleted after the first line was taken never comes out', async () => {
    const store = await IdbEpisodeStore.open(freshIndexedDb());
    const episodes = makeEpisodes(700, 19);
    await store.putMany(episodes);
    const newest = [...episodes].sort((a, b) => (a.createdAt < b.createdAt ? 1 : -1))[0];
    const iterator = store.exportJsonl()[Symbol.asyncIterator]();
    expect((await iterator.next()).done).toBe(false);
    // An export that had read the whole store first would still yield the newest (last) episode.
    await store.delete(newest.id);
    const ids: string[] = [];
    for (let r = await iterator.next(); !r.done; r = await iterator.next()) ids.push(JSON.parse(r.value).id);
    expect(ids).toHaveLength(698);
    expect(ids).not.toContain(newest.id);
    await store.close();
  });
});

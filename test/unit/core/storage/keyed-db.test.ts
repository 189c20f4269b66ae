/** The workers' small IndexedDB databases (fake-indexeddb): typed reads, all-or-nothing writes, a full disk in the user's words. */
import 'fake-indexeddb/auto';
import { IDBFactory } from 'fake-indexeddb';
import { describe, expect, it } from 'vitest';
import { KeyedDb } from '../../../../src/core/storage/index.ts';

const open = (factory = new IDBFactory()) => KeyedDb.open(factory, 'test-db', 1, { a: 'id', b: 'key' });

describe('KeyedDb', () => {
  it('keeps what a write stored across connections', async () => {
    const factory = new IDBFactory();
    const db = await open(factory);
    await db.write(['a', 'b'], 'full', (tx) => Promise.all([tx.objectStore('a').put({ id: 'x', n: 1 }), tx.objectStore('b').put({ key: 'y', n: 2 })]));
    await db.put('a', { id: 'z', n: 3 }, 'full');
    db.close();
    const again = await open(factory);
    expect(await again.get<{ n: number }>('a', 'x')).toEqual({ id: 'x', n: 1 });
    expect((await again.getAll<{ n: number }>('a')).map((r) => r.n)).toEqual([1, 3]);
    expect(await again.get('b', 'missing')).toBeUndefined();
    again.close();
  });

  it('stores none of a write whose last part fails', async () => {
    const db = await open();
    // A record without its store's key field is refused, after the first store's put went in.
    const failing = db.write(['a', 'b'], 'full', async (tx) => {
      await tx.objectStore('a').put({ id: 'x' });
      await tx.objectStore('b').put({ id: 'no key' });
    });
    await expect(failing).rejects.toMatchObject({ name: 'DataError' });
    expect(await db.get('a', 'x')).toBeUndefined();
    db.close();
  });

  it('turns a full disk into store/quota with the words given, and lets other failures through', async () => {
    const db = await open();
    const full = db.write(['a'], 'Delete old runs, then resume.', () => Promise.reject(new DOMException('quota', 'QuotaExceededError')));
    await expect(full).rejects.toMatchObject({ code: 'store/quota', message: 'Delete old runs, then resume.' });
    await expect(db.write(['a'], 'full', () => Promise.reject(new Error('other')))).rejects.toThrow('other');
    db.close();
  });
});

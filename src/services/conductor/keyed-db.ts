/**
 * The small IndexedDB databases of the web workers (trained adapters here, the Train page's run in
 * services/trainer): a few object stores keyed by a field, no indexes, created on first open.
 */
import { wrap, type IDBPDatabase } from 'idb';
import { BatonError } from '../../core/errors/index.ts';

/** Opens one of the app's small IndexedDB databases (a few object stores keyed by a field, no indexes). */
export async function openKeyedDb(factory: IDBFactory, name: string, version: number, stores: Record<string, string>): Promise<IDBPDatabase> {
  const request = factory.open(name, version);
  request.addEventListener('upgradeneeded', () => {
    for (const [store, keyPath] of Object.entries(stores)) if (!request.result.objectStoreNames.contains(store)) request.result.createObjectStore(store, { keyPath });
  });
  try {
    const db = (await wrap(request)) as IDBPDatabase;
    db.addEventListener('versionchange', () => db.close());
    return db;
  } catch (e) {
    throw new BatonError({
      code: 'store/io',
      message: `Could not open the browser's storage (${name}): ${(e as Error)?.message ?? String(e)}. Check that this browser allows site storage.`,
      cause: e,
    });
  }
}

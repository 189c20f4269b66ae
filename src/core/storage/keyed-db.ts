/**
 * Baton's small IndexedDB databases: the spending ledger (core/orchestra), which the page and every web worker
 * share, and the web workers' own (the trained adapters in services/runtimes, the Train page's run in
 * services/trainer, the Evaluate page's evaluations in services/evaluator): a few object stores keyed by a
 * field, no indexes, created on first open. It lives in core so that both the page and the workers reach it.
 * KeyedDb reads them typed and writes in one transaction, a full disk becoming 'store/quota' with the words
 * each database gives for what to do.
 * Test: test/unit/core/storage/keyed-db.test.ts (fake-indexeddb).
 */
import { wrap, type IDBPDatabase, type IDBPTransaction } from 'idb';
import { isQuotaError } from '../episodes/index.ts';
import { BatonError } from '../errors/index.ts';

/** Opens one of the app's small IndexedDB databases (a few object stores keyed by a field, no indexes). */
export async function openKeyedDb(factory: IDBFactory, name: string, version: number, stores: Record<string, string>): Promise<IDBPDatabase> {
  const request = factory.open(name, version);
  request.addEventListener('upgradeneeded', () => {
    for (const [store, keyPath] of Object.entries(stores))
      if (!request.result.objectStoreNames.contains(store)) request.result.createObjectStore(store, { keyPath });
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

export type KeyedTransaction = IDBPTransaction<unknown, string[], 'readwrite'>;

export class KeyedDb {
  readonly #db: IDBPDatabase;

  private constructor(db: IDBPDatabase) {
    this.#db = db;
  }

  static async open(factory: IDBFactory, name: string, version: number, stores: Record<string, string>): Promise<KeyedDb> {
    return new KeyedDb(await openKeyedDb(factory, name, version, stores));
  }

  async get<T>(store: string, key: IDBValidKey): Promise<T | undefined> {
    return (await this.#db.get(store, key)) as T | undefined;
  }

  async getAll<T>(store: string, range?: IDBKeyRange): Promise<T[]> {
    return (await this.#db.getAll(store, range)) as T[];
  }

  /** Writes to `stores` in one transaction: all of `write` is stored, or none. `whenFull` tells the user what to do when the disk is full. */
  async write(stores: readonly string[], whenFull: string, write: (tx: KeyedTransaction) => Promise<unknown>): Promise<void> {
    const tx = this.#db.transaction([...stores], 'readwrite');
    // A request that fails aborts the transaction by itself; an exception thrown before one is made (a value that cannot be stored) does not.
    const written = write(tx).catch((e: unknown) => {
      try {
        tx.abort();
      } catch {
        // already committed or aborted
      }
      throw e;
    });
    try {
      await Promise.all([written, tx.done]);
    } catch (e) {
      if (!isQuotaError(e)) throw e;
      throw new BatonError({ code: 'store/quota', message: whenFull, cause: e });
    }
  }

  put(store: string, value: unknown, whenFull: string): Promise<void> {
    return this.write([store], whenFull, (tx) => tx.objectStore(store).put(value));
  }

  close(): void {
    this.#db.close();
  }
}

/**
 * fake-indexeddb for the IndexedDB store tests. Each test gets its own factory (a fresh, empty
 * "browser"), passed to the store explicitly. Only idb's class checks need globals: idb recognises
 * IndexedDB objects with `instanceof IDBRequest` etc., which a page provides and Node does not.
 */
import * as fake from 'fake-indexeddb';

const CLASSES = [
  'IDBCursor',
  'IDBCursorWithValue',
  'IDBDatabase',
  'IDBIndex',
  'IDBKeyRange',
  'IDBObjectStore',
  'IDBOpenDBRequest',
  'IDBRequest',
  'IDBTransaction',
  'IDBVersionChangeEvent',
] as const;

// Always (re)define: a worker reused across test files may hold another module instance's classes.
for (const name of CLASSES) {
  Object.defineProperty(globalThis, name, { value: fake[name], configurable: true, writable: true });
}

export function freshIndexedDb(): { indexedDB: IDBFactory; IDBKeyRange: typeof IDBKeyRange } {
  return { indexedDB: new fake.IDBFactory() as IDBFactory, IDBKeyRange: fake.IDBKeyRange as typeof IDBKeyRange };
}

interface RawObjectStore {
  records: { values(): Iterable<{ key: unknown; value: unknown }> };
  storeRecord(record: { key?: unknown; value: unknown }, noOverwrite: boolean, rollbackLog?: unknown[]): unknown;
}

/**
 * Gives fake-indexeddb the one thing it lacks, a storage quota, at the place the IndexedDB spec puts
 * the check: the "store a record into an object store" step run inside the transaction. A record that
 * would take the object store over `bytes` (JSON size) fails there with a QuotaExceededError
 * DOMException; from then on fake-indexeddb's own machinery runs exactly as for any failed request:
 * the error event on the request, the transaction aborted with that error, its writes rolled back.
 * The store under test is untouched. Returns a function that removes the quota.
 */
export async function limitStorage(factory: IDBFactory, bytes: number): Promise<() => void> {
  const proto = await rawObjectStorePrototype(factory);
  const original = proto.storeRecord;
  proto.storeRecord = function (this: RawObjectStore, record, noOverwrite, rollbackLog) {
    const key = JSON.stringify(record.key ?? (record.value as { id?: unknown }).id);
    let used = 0;
    for (const r of this.records.values()) if (JSON.stringify(r.key) !== key) used += JSON.stringify(r.value).length;
    if (used + JSON.stringify(record.value).length > bytes) {
      throw new DOMException('The quota has been exceeded.', 'QuotaExceededError');
    }
    return original.call(this, record, noOverwrite, rollbackLog);
  };
  return () => {
    proto.storeRecord = original;
  };
}

/** The class behind every fake object store, reached through a scratch database. */
async function rawObjectStorePrototype(factory: IDBFactory): Promise<RawObjectStore> {
  const request = factory.open('quota-probe', 1);
  request.onupgradeneeded = () => request.result.createObjectStore('probe');
  const db = await new Promise<IDBDatabase>((resolve, reject) => {
    request.onsuccess = () => resolve(request.result);
    request.onerror = () => reject(request.error);
  });
  const raw = (db.transaction('probe').objectStore('probe') as unknown as { _rawObjectStore: RawObjectStore })._rawObjectStore;
  db.close();
  return Object.getPrototypeOf(raw) as RawObjectStore;
}

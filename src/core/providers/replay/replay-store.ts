/**
 * The recorded model answers that 'replay' workers give, kept in their own IndexedDB database
 * ('baton-replay'): imported once on the Workers page, read by the Conductor worker at run time.
 * Tested with fake-indexeddb by test/unit/core/providers/replay/replay-store.test.ts.
 */
import { wrap, type DBSchema, type IDBPDatabase } from 'idb';
import type { ReplayTable } from './replay-table.ts';

const REPLAY_DB_NAME = 'baton-replay';
const STORE = 'replay';
const KEY = 'current';

export interface StoredReplay {
  /** File names the table was read from. */
  sources: string[];
  table: ReplayTable;
}

interface ReplayDb extends DBSchema {
  replay: { key: string; value: StoredReplay };
}

async function open(factory: IDBFactory): Promise<IDBPDatabase<ReplayDb>> {
  const request = factory.open(REPLAY_DB_NAME, 1);
  request.onupgradeneeded = () => request.result.createObjectStore(STORE);
  return (await wrap(request)) as unknown as IDBPDatabase<ReplayDb>;
}

async function withDb<T>(factory: IDBFactory, use: (db: IDBPDatabase<ReplayDb>) => Promise<T>): Promise<T> {
  const db = await open(factory);
  try {
    return await use(db);
  } finally {
    db.close();
  }
}

export function loadReplay(factory: IDBFactory): Promise<StoredReplay | undefined> {
  return withDb(factory, (db) => db.get(STORE, KEY));
}

function saveReplay(factory: IDBFactory, replay: StoredReplay): Promise<void> {
  return withDb(factory, async (db) => void (await db.put(STORE, replay, KEY)));
}

export function clearReplay(factory: IDBFactory): Promise<void> {
  return withDb(factory, (db) => db.delete(STORE, KEY));
}

/** Reads RouteLLM CSV files and merges them into the stored table (later files win on a repeated question). */
export async function importReplayCsv(factory: IDBFactory, files: { name: string; text: string }[]): Promise<StoredReplay> {
  const { mergeReplayCsv } = await import('./merge-replay-csv.ts');
  const current = await loadReplay(factory);
  const replay: StoredReplay = {
    sources: [...new Set([...(current?.sources ?? []), ...files.map((f) => f.name)])],
    table: mergeReplayCsv(current?.table, files),
  };
  await saveReplay(factory, replay);
  return replay;
}

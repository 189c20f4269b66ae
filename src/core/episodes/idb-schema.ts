import { wrap, type DBSchema, type IDBPDatabase, type IDBPTransaction } from 'idb';
import { BatonError } from '../errors/index.ts';
import type { Conversation } from './conversation.ts';
import type { Episode } from './types.ts';

/**
 * The IndexedDB layout of the episode store, one migration per schema version. Episodes are stored
 * exactly as the Episode type says (keyPath id). Each filter index ends its key with (createdAt, id),
 * so a filtered query walks its index already in time order and a page cursor is an index key.
 */
const EPISODE_DB_NAME = 'baton';
export const EPISODE_STORE = 'episodes';
export const CONVERSATION_STORE = 'conversations';
export const EPISODE_DB_VERSION = 3;

export interface EpisodeDb extends DBSchema {
  episodes: {
    key: string;
    value: Episode;
    indexes: {
      byTime: IDBValidKey;
      byDataset: IDBValidKey;
      byTag: string;
      byGroup: IDBValidKey;
      byConductorModel: IDBValidKey;
      byStatus: IDBValidKey;
      byConversation: IDBValidKey;
    };
  };
  conversations: {
    key: string;
    value: Conversation;
  };
}

export type EpisodeIndexName = keyof EpisodeDb['episodes']['indexes'];

type UpgradeTx = IDBPTransaction<EpisodeDb, ['episodes', 'conversations'], 'versionchange'>;
type Migration = (db: IDBPDatabase<EpisodeDb>, tx: UpgradeTx) => void;

/** MIGRATIONS[v - 1] takes a database from version v - 1 to v. Append only; never edit a shipped one. */
const MIGRATIONS: Migration[] = [
  // v1: the store and the indexes for time, dataset, tag, group and Conductor model.
  (db) => {
    const store = db.createObjectStore(EPISODE_STORE, { keyPath: 'id' });
    store.createIndex('byTime', ['createdAt', 'id']);
    store.createIndex('byDataset', ['task.dataset', 'createdAt', 'id']);
    store.createIndex('byTag', 'tags', { multiEntry: true });
    store.createIndex('byGroup', ['group', 'createdAt', 'id']);
    store.createIndex('byConductorModel', ['conductor.model', 'createdAt', 'id']);
  },
  // v2: an index on status, built over the episodes already stored.
  (_db, tx) => {
    tx.objectStore(EPISODE_STORE).createIndex('byStatus', ['status', 'createdAt', 'id']);
  },
  // v3: the Ask page's conversations, and an index of the episodes that are their turns.
  (db, tx) => {
    db.createObjectStore(CONVERSATION_STORE, { keyPath: 'id' });
    tx.objectStore(EPISODE_STORE).createIndex('byConversation', ['conversation.id', 'createdAt', 'id']);
  },
];

export interface OpenEpisodeDbOptions {
  /** The IndexedDB factory: `indexedDB` in a page or worker, fake-indexeddb's in tests. */
  indexedDB: IDBFactory;
  name?: string;
  /** Defaults to EPISODE_DB_VERSION; lower only to build an old database in an upgrade test. */
  version?: number;
}

/** Opens (creating or upgrading as needed) the episode database through the given factory. */
export async function openEpisodeDb(options: OpenEpisodeDbOptions): Promise<IDBPDatabase<EpisodeDb>> {
  const version = options.version ?? EPISODE_DB_VERSION;
  if (!Number.isInteger(version) || version < 1 || version > MIGRATIONS.length) {
    throw new BatonError({ code: 'internal', message: `Episode database version ${version} does not exist (1..${MIGRATIONS.length}).` });
  }
  const request = options.indexedDB.open(options.name ?? EPISODE_DB_NAME, version);
  request.addEventListener('upgradeneeded', (event) => {
    const db = wrap(request.result) as unknown as IDBPDatabase<EpisodeDb>;
    const tx = wrap(request.transaction!) as unknown as UpgradeTx;
    for (let v = event.oldVersion + 1; v <= version; v++) MIGRATIONS[v - 1](db, tx);
  });
  let raw: IDBPDatabase | undefined;
  try {
    raw = await wrap(request);
  } catch (e) {
    throw new BatonError({
      code: (e as Error)?.name === 'VersionError' ? 'store/corrupt' : 'store/io',
      message:
        (e as Error)?.name === 'VersionError'
          ? 'The episode database was written by a newer Baton; reload the page to get the latest version.'
          : `Could not open the episode database: ${(e as Error)?.message ?? String(e)}. Check that this browser allows site storage.`,
      cause: e,
    });
  }
  const db = raw as unknown as IDBPDatabase<EpisodeDb>;
  // Let a newer Baton in another tab upgrade the schema instead of waiting on us forever.
  db.addEventListener('versionchange', () => db.close());
  return db;
}

/**
 * API keys in their own IndexedDB database ('baton-keys'), apart from episodes, so no export or episode
 * query can reach them. A key is stored plain or encrypted with a passphrase (key-crypto.ts); only a
 * masked hint is ever listed. Tested with fake-indexeddb by test/unit/client/keys/key-store.test.ts.
 */
import { wrap, type DBSchema, type IDBPDatabase } from 'idb';
import { BatonError } from '../../core/errors/index.ts';
import { decryptSecret, encryptSecret, type EncryptedSecret } from './key-crypto.ts';

const KEY_DB_NAME = 'baton-keys';
const STORE = 'keys';

interface KeyRecord {
  slot: string;
  /** The last four characters, for recognising a key without showing it. */
  hint: string;
  addedAt: string;
  secret: { kind: 'plain'; value: string } | ({ kind: 'encrypted' } & EncryptedSecret);
}

interface KeyDb extends DBSchema {
  keys: { key: string; value: KeyRecord };
}

/** What the UI may show about a stored key. */
export interface KeyInfo {
  slot: string;
  masked: string;
  encrypted: boolean;
  /** Kept for this tab only (session-keys.ts), never stored here. */
  tabOnly?: boolean;
  addedAt: string;
}

/** A key as pasted, without the spaces around it; an empty one is refused. */
export function pastedKey(key: string): string {
  const trimmed = key.trim();
  if (trimmed === '') throw new BatonError({ code: 'run/config', message: 'The key is empty: paste the key, then save.' });
  return trimmed;
}

export class KeyStore {
  private constructor(private readonly db: IDBPDatabase<KeyDb>) {}

  static async open(factory: IDBFactory, name = KEY_DB_NAME): Promise<KeyStore> {
    // Opened through the given factory (the page's, or fake-indexeddb's in tests), then wrapped by idb.
    const request = factory.open(name, 1);
    request.onupgradeneeded = () => request.result.createObjectStore(STORE, { keyPath: 'slot' });
    const db = (await wrap(request)) as unknown as IDBPDatabase<KeyDb>;
    return new KeyStore(db);
  }

  async list(): Promise<KeyInfo[]> {
    const all = await this.db.getAll(STORE);
    return all.map((r) => ({ slot: r.slot, masked: `••••${r.hint}`, encrypted: r.secret.kind === 'encrypted', addedAt: r.addedAt }));
  }

  /** Saves (or replaces) the key of a slot; encrypted when a passphrase is given. */
  async set(slot: string, key: string, passphrase?: string): Promise<void> {
    const trimmed = pastedKey(key);
    const secret: KeyRecord['secret'] =
      passphrase === undefined || passphrase === '' ? { kind: 'plain', value: trimmed } : { kind: 'encrypted', ...(await encryptSecret(trimmed, passphrase)) };
    await this.db.put(STORE, { slot, hint: trimmed.slice(-4), addedAt: new Date().toISOString(), secret });
  }

  /** The key of a slot, or undefined when none is stored. An encrypted key needs its passphrase. */
  async get(slot: string, passphrase?: string): Promise<string | undefined> {
    const record = await this.db.get(STORE, slot);
    if (!record) return undefined;
    if (record.secret.kind === 'plain') return record.secret.value;
    if (passphrase === undefined) {
      throw new BatonError({
        code: 'run/config',
        message: 'Stored keys are locked: enter the passphrase on the Workers page to unlock them.',
        data: { slot },
      });
    }
    return decryptSecret(record.secret, passphrase);
  }

  async remove(slot: string): Promise<void> {
    await this.db.delete(STORE, slot);
  }
}

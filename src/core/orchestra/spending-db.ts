/**
 * The spending ledger in IndexedDB, which every tab and web worker of this browser shares: one row per
 * worker per local day (a read before each paid call stays a few rows, however many calls ran), and the
 * caps. Each write is told on a BroadcastChannel so open pages show it at once.
 * Test: test/unit/core/orchestra/spending.test.ts (fake-indexeddb).
 */
import { wrap, type DBSchema, type IDBPDatabase } from 'idb';
import { BatonError } from '../errors/index.ts';
import { workerName, type WorkerSpec } from '../providers/index.ts';
import { NO_SPENDING_LIMITS, type SpendingLimits, type SpendingRow, type SpendingSnapshot, type SpendingStore } from './spending.ts';

const DB_NAME = 'baton-spending';
/** The channel a write is told on: its message is the day written. */
export const SPENDING_CHANNEL = 'baton-spending';

interface SpendingDb extends DBSchema {
  /** Keyed "day|workerId", so a day's or a month's rows are one key range. */
  days: { key: string; value: SpendingRow & { key: string } };
  limits: { key: string; value: SpendingLimits & { id: string } };
}

const LIMITS_ID = 'limits';

const storageError = (e: unknown) =>
  new BatonError({
    code: 'store/io',
    message: `Could not read or write the spending ledger in this browser's storage: ${(e as Error)?.message ?? String(e)}. Check that this browser allows site storage.`,
    cause: e,
  });

export class IdbSpendingStore implements SpendingStore {
  private constructor(
    private readonly db: IDBPDatabase<SpendingDb>,
    private readonly keyRange: typeof IDBKeyRange,
  ) {}

  static async open(factory: IDBFactory, keyRange: typeof IDBKeyRange): Promise<IdbSpendingStore> {
    const request = factory.open(DB_NAME, 1);
    request.addEventListener('upgradeneeded', () => {
      request.result.createObjectStore('days', { keyPath: 'key' });
      request.result.createObjectStore('limits', { keyPath: 'id' });
    });
    try {
      const db = (await wrap(request)) as IDBPDatabase<SpendingDb>;
      // A later version opened in another tab waits for this connection to close.
      db.addEventListener('versionchange', () => db.close());
      return new IdbSpendingStore(db, keyRange);
    } catch (e) {
      throw storageError(e);
    }
  }

  /** Rows whose day starts with `prefix` ("2026-12" a month, "2026-12-03" a day). */
  #range(prefix: string): IDBKeyRange {
    return this.keyRange.bound(prefix, `${prefix}\uffff`);
  }

  async snapshot(day: string): Promise<SpendingSnapshot> {
    const tx = this.db.transaction(['days', 'limits']);
    const [rows, limits] = await Promise.all([tx.objectStore('days').getAll(this.#range(day.slice(0, 7))), tx.objectStore('limits').get(LIMITS_ID)]);
    const sum = (rs: SpendingRow[]) => rs.reduce((s, r) => s + r.usd, 0);
    return { limits: limitsOf(limits), dayUsd: sum(rows.filter((r) => r.day === day)), monthUsd: sum(rows) };
  }

  async add(day: string, spec: WorkerSpec, usd: number | null): Promise<void> {
    const key = `${day}|${spec.id}`;
    const tx = this.db.transaction('days', 'readwrite');
    // One transaction: a write of another tab to the same row waits for it, so no call is counted twice or lost.
    const row = (await tx.store.get(key)) ?? { key, day, workerId: spec.id, name: workerName(spec), usd: 0, calls: 0 };
    await tx.store.put({ ...row, name: workerName(spec), usd: row.usd + (usd ?? 0), calls: row.calls + 1 });
    await tx.done;
    tell(day);
  }

  /** The rows of the days from `first` to `last` (inclusive), oldest first. */
  async rows(first: string, last: string): Promise<SpendingRow[]> {
    const rows = await this.db.getAll('days', this.keyRange.bound(first, `${last}\uffff`));
    return rows.map(({ key: _, ...row }) => row);
  }

  async limits(): Promise<SpendingLimits> {
    return limitsOf(await this.db.get('limits', LIMITS_ID));
  }

  async setLimits(limits: SpendingLimits): Promise<void> {
    await this.db.put('limits', { id: LIMITS_ID, dayUsd: limits.dayUsd, monthUsd: limits.monthUsd });
    tell('limits');
  }

  close(): void {
    this.db.close();
  }
}

/** A stored cap, checked: anything but a positive number is no cap. */
function limitsOf(stored: Partial<SpendingLimits> | undefined): SpendingLimits {
  const cap = (v: unknown) => (typeof v === 'number' && Number.isFinite(v) && v > 0 ? v : null);
  return stored ? { dayUsd: cap(stored.dayUsd), monthUsd: cap(stored.monthUsd) } : NO_SPENDING_LIMITS;
}

function tell(what: string): void {
  if (typeof BroadcastChannel === 'undefined') return;
  const channel = new BroadcastChannel(SPENDING_CHANNEL);
  channel.postMessage(what);
  channel.close();
}

let shared: Promise<IdbSpendingStore> | undefined;

/** This context's (the page's, or a web worker's) one connection to the ledger, opened on first use. */
export function spendingStore(): Promise<IdbSpendingStore> {
  shared ??= IdbSpendingStore.open(indexedDB, IDBKeyRange).catch((e: unknown) => {
    shared = undefined;
    throw e;
  });
  return shared;
}

/**
 * The spending ledger in IndexedDB, which every tab and web worker of this browser shares: one row per
 * worker per local day (a read before each paid call stays a few rows, however many calls ran), and the
 * caps. Each write is told on a BroadcastChannel so open pages show it at once.
 * Test: test/unit/core/orchestra/spending.test.ts (fake-indexeddb).
 */
import { workerName, type WorkerSpec } from '../providers/index.ts';
import { KeyedDb } from '../storage/index.ts';
import { NO_SPENDING_LIMITS, type SpendingLimits, type SpendingRow, type SpendingSnapshot, type SpendingStore } from './spending.ts';

const DB_NAME = 'baton-spending';
/** The channel a write is told on: its message is the day written. */
export const SPENDING_CHANNEL = 'baton-spending';

// The layout every version has written, so earlier ledgers still read: rows keyed "day|workerId" (a day's or
// a month's rows are one key range), and the caps in one record.
const DAYS = 'days';
const LIMITS = 'limits';
const LIMITS_ID = 'limits';
type DayRecord = SpendingRow & { key: string };

const FULL = "The browser's storage for this site is full, so the spending ledger could not be saved: delete old episodes or evaluations, then try again.";

export class IdbSpendingStore implements SpendingStore {
  private constructor(
    private readonly db: KeyedDb,
    private readonly keyRange: typeof IDBKeyRange,
  ) {}

  static async open(factory: IDBFactory, keyRange: typeof IDBKeyRange): Promise<IdbSpendingStore> {
    return new IdbSpendingStore(await KeyedDb.open(factory, DB_NAME, 1, { [DAYS]: 'key', [LIMITS]: 'id' }), keyRange);
  }

  /** Rows whose day starts with `prefix` ("2026-12" a month, "2026-12-03" a day). */
  #range(prefix: string): IDBKeyRange {
    return this.keyRange.bound(prefix, `${prefix}\uffff`);
  }

  async snapshot(day: string): Promise<SpendingSnapshot> {
    const [rows, limits] = await Promise.all([this.db.getAll<DayRecord>(DAYS, this.#range(day.slice(0, 7))), this.limits()]);
    const sum = (rs: SpendingRow[]) => rs.reduce((s, r) => s + r.usd, 0);
    return { limits, dayUsd: sum(rows.filter((r) => r.day === day)), monthUsd: sum(rows) };
  }

  async add(day: string, spec: WorkerSpec, usd: number | null): Promise<void> {
    const key = `${day}|${spec.id}`;
    // One transaction: a write of another tab to the same row waits for it, so no call is counted twice or lost.
    await this.db.write([DAYS], FULL, async (tx) => {
      const days = tx.objectStore(DAYS);
      const row = ((await days.get(key)) as DayRecord | undefined) ?? { key, day, workerId: spec.id, name: workerName(spec), usd: 0, calls: 0 };
      await days.put({ ...row, name: workerName(spec), usd: row.usd + (usd ?? 0), calls: row.calls + 1 });
    });
    tell(day);
  }

  /** The rows of the days from `first` to `last` (inclusive), oldest first. */
  async rows(first: string, last: string): Promise<SpendingRow[]> {
    const rows = await this.db.getAll<DayRecord>(DAYS, this.keyRange.bound(first, `${last}\uffff`));
    return rows.map(({ key: _, ...row }) => row);
  }

  async limits(): Promise<SpendingLimits> {
    return limitsOf(await this.db.get<Partial<SpendingLimits>>(LIMITS, LIMITS_ID));
  }

  async setLimits(limits: SpendingLimits): Promise<void> {
    await this.db.put(LIMITS, { id: LIMITS_ID, dayUsd: limits.dayUsd, monthUsd: limits.monthUsd }, FULL);
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

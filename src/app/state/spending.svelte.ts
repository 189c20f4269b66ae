/**
 * The spending ledger as the pages show it (Settings: the caps and what today and this month spent; Episodes:
 * dollars per worker per day), read from IndexedDB, which every tab and web worker shares, and read again
 * whenever any of them writes to it (core/orchestra's SPENDING_CHANNEL).
 */
import { localDay, SPENDING_CHANNEL, spendingStore, type SpendingLimits, type SpendingRow } from '../../core/orchestra/index.ts';
import { toBatonError } from '../../core/errors/index.ts';

/** Days the Episodes page's table covers, today included. */
export const SPENDING_DAYS = 7;

export class SpendingState {
  limits = $state.raw<SpendingLimits>({ dayUsd: null, monthUsd: null });
  todayUsd = $state(0);
  monthUsd = $state(0);
  /** The last SPENDING_DAYS days' rows, newest day first. */
  rows = $state.raw<SpendingRow[]>([]);
  error = $state<string | undefined>(undefined);

  async refresh(): Promise<void> {
    try {
      const store = await spendingStore();
      const now = new Date();
      const today = localDay(now);
      const first = localDay(new Date(now.getFullYear(), now.getMonth(), now.getDate() - (SPENDING_DAYS - 1)));
      const [snapshot, rows] = await Promise.all([store.snapshot(today), store.rows(first, today)]);
      this.limits = snapshot.limits;
      this.todayUsd = snapshot.dayUsd;
      this.monthUsd = snapshot.monthUsd;
      this.rows = rows.reverse();
      this.error = undefined;
    } catch (e) {
      this.error = toBatonError(e, 'store/io').message;
    }
  }

  async setLimits(limits: SpendingLimits): Promise<void> {
    try {
      await (await spendingStore()).setLimits(limits);
    } catch (e) {
      this.error = toBatonError(e, 'store/io').message;
    }
    await this.refresh();
  }

  /** Reads now and after every write of any tab; returns the function that stops listening (an $effect's cleanup). */
  watch(): () => void {
    void this.refresh();
    const channel = new BroadcastChannel(SPENDING_CHANNEL);
    channel.onmessage = () => void this.refresh();
    return () => channel.close();
  }
}

/**
 * Spending limits over time: a dollar cap per day and per month over every run of this browser (Ask,
 * comparisons, Evaluate, Train), checked before each paid call the way a run's own budget is (budget.ts),
 * against a ledger that every tab and web worker shares (spending-db.ts: IndexedDB). Days and months are
 * the user's local ones. Test: test/unit/core/orchestra/spending.test.ts.
 */
import { BatonError } from '../errors/index.ts';
import { costUsd } from '../pricing/index.ts';
import { workerName, type ProviderName, type WorkerModel, type WorkerSpec } from '../providers/index.ts';
import { worstCaseCostUsd } from './budget.ts';
import { DEFAULT_STEP_MAX_TOKENS } from './execute-workflow.ts';

/** Dollars a day and a month may spend; null: no cap. */
export interface SpendingLimits {
  dayUsd: number | null;
  monthUsd: number | null;
}

export const NO_SPENDING_LIMITS: SpendingLimits = { dayUsd: null, monthUsd: null };

/** What one worker spent on one day: one row of the ledger. */
export interface SpendingRow {
  /** Local date, "2026-12-03". */
  day: string;
  workerId: string;
  /** The worker as its user named it, when the row was last written. */
  name: string;
  /** Dollars of the calls whose price is known. */
  usd: number;
  calls: number;
}

/** What the guard reads before a call: the caps and what today and this month have spent so far. */
export interface SpendingSnapshot {
  limits: SpendingLimits;
  dayUsd: number;
  monthUsd: number;
}

/** Where the ledger lives: IndexedDB in the app (spending-db.ts). */
export interface SpendingStore {
  snapshot(day: string): Promise<SpendingSnapshot>;
  add(day: string, spec: WorkerSpec, usd: number | null): Promise<void>;
}

/** Providers that bill: simulated and replayed workers, and models in the tab, cost nothing. */
const BILLED: readonly ProviderName[] = ['openai', 'anthropic', 'google', 'openai-compatible'];

/** A date as the local calendar day, "2026-12-03"; its first 7 characters are the month. */
export function localDay(date: Date): string {
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())}`;
}

const usd = (x: number) => `$${Number(x.toPrecision(3))}`;

/**
 * Wraps the pool's paid workers so that each call first checks the day and month caps, and its cost goes
 * into the ledger once known. A call whose worst case could pass a cap is not made: it fails with
 * 'run/budget', so the run ends as status 'budget' and keeps what it had. Calls in flight in this thread
 * hold their worst case until their cost is known; calls of other tabs count once they end.
 */
export class SpendingGuard {
  #reserved = 0;

  constructor(
    private readonly store: SpendingStore,
    private readonly now: () => Date = () => new Date(),
  ) {}

  wrap(worker: WorkerModel): WorkerModel {
    if (!BILLED.includes(worker.spec.provider)) return worker;
    return { spec: worker.spec, supportsPrefill: worker.supportsPrefill, call: (req) => this.#call(worker, req) };
  }

  async #call(worker: WorkerModel, req: Parameters<WorkerModel['call']>[0]) {
    const { spec } = worker;
    const day = localDay(this.now());
    const worst = this.#check(
      spec,
      await this.store.snapshot(day),
      worstCaseCostUsd(spec, req.messages, req.maxTokens ?? spec.maxTokens ?? DEFAULT_STEP_MAX_TOKENS),
    );
    this.#reserved += worst;
    let result;
    try {
      result = await worker.call(req);
    } finally {
      this.#reserved -= worst;
    }
    // A response from a cache was paid for by the call that fetched it. A ledger that cannot be written
    // (a full disk) must not lose an answer already paid for.
    await this.store.add(day, spec, result.fromCache ? 0 : costUsd(result.usage, spec.price)).catch(() => {});
    return result;
  }

  /** The worst case to reserve, or a 'run/budget' error naming the cap it could pass. */
  #check(spec: WorkerSpec, now: SpendingSnapshot, worst: number | null): number {
    const { dayUsd, monthUsd } = now.limits;
    if (dayUsd === null && monthUsd === null) return 0;
    const refuse = (message: string, data: Record<string, unknown>) =>
      new BatonError({ code: 'run/budget', message, data: { worker: spec.id, attempts: 0, ...data } });
    if (worst === null) {
      throw refuse(
        `Not calling ${workerName(spec)}: it has no price, so the spending limits (Settings) cannot be kept. Give it a price on the Workers page (0 if it is free), or clear the limits.`,
        {},
      );
    }
    const caps = [
      { cap: dayUsd, spent: now.dayUsd, period: "today's", until: 'tomorrow' },
      { cap: monthUsd, spent: now.monthUsd, period: "this month's", until: 'next month' },
    ];
    for (const { cap, spent, period, until } of caps) {
      if (cap === null) continue;
      const committed = spent + this.#reserved;
      if (committed + worst > cap) {
        throw refuse(
          `Stopped by ${period} spending limit of ${usd(cap)}: ${usd(committed)} is spent or in flight, and calling ${workerName(spec)} could cost up to ${usd(worst)}. What ran is kept. Raise the limit on the Settings page, or wait until ${until}.`,
          { capUsd: cap, spentUsd: committed, worstCaseUsd: worst },
        );
      }
    }
    return worst;
  }
}

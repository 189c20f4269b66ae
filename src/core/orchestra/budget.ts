import { BatonError } from '../errors/index.ts';
import { costUsd } from '../pricing/index.ts';
import { workerName, type ChatMessage, type WorkerSpec } from '../providers/index.ts';

/** Three significant digits: "$0.5", "$0.0101", not "$0.500000". */
const usd = (x: number) => `$${Number(x.toPrecision(3))}`;

/** The most a call can cost: its input at ~4 characters a token, plus every output token it may write. */
export function worstCaseCostUsd(spec: WorkerSpec, messages: ChatMessage[], maxTokens: number): number | null {
  const chars = messages.reduce((n, m) => n + m.content.length, 0);
  return costUsd({ input: Math.ceil(chars / 4), output: maxTokens }, spec.price);
}

/**
 * A total dollar cap, enforced before each call: a call whose worst case could take spending past the
 * cap is not made. Concurrent calls hold their worst case as a reservation until their real cost is known.
 */
export class BudgetLedger {
  #spent = 0;
  #reserved = 0;

  constructor(readonly capUsd: number) {}

  get spentUsd(): number {
    return this.#spent;
  }

  /** Reserves the worst case of a call, or throws a 'run/budget' BatonError. Returns a settle function. */
  reserve(spec: WorkerSpec, messages: ChatMessage[], maxTokens: number): (actualUsd: number | null) => void {
    const worst = worstCaseCostUsd(spec, messages, maxTokens);
    if (worst === null) {
      throw new BatonError({
        code: 'run/budget',
        message: `Worker ${workerName(spec)} has no price, so a ${usd(this.capUsd)} budget cannot be enforced: give it a price in the pool or run without a budget.`,
        data: { worker: spec.id },
      });
    }
    const committed = this.#spent + this.#reserved;
    if (committed + worst > this.capUsd) {
      throw new BatonError({
        code: 'run/budget',
        message: `Not calling ${workerName(spec)}: it could cost up to ${usd(worst)}, and ${usd(committed)} of the ${usd(this.capUsd)} budget is already used or reserved. Raise the budget or lower the worker's max output tokens.`,
        data: { worker: spec.id, worstCaseUsd: worst, committedUsd: committed, capUsd: this.capUsd },
      });
    }
    this.#reserved += worst;
    let settled = false;
    return (actual) => {
      if (settled) return;
      settled = true;
      this.#reserved -= worst;
      this.#spent += actual ?? worst;
    };
  }
}

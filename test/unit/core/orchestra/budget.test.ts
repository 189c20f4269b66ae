import { describe, expect, it } from 'vitest';
import { BudgetLedger, worstCaseCostUsd } from '../../../../src/core/orchestra/budget.ts';
import { BatonError } from '../../../../src/core/errors/index.ts';
import type { WorkerSpec } from '../../../../src/core/providers/types.ts';

const priced: WorkerSpec = { id: 'w', provider: 'simulated', model: 'm', price: { input: 1, output: 10 } };
const messages = [{ role: 'user' as const, content: 'x'.repeat(400) }]; // 100 input tokens

describe('worstCaseCostUsd', () => {
  it('prices the input at 4 characters a token and every allowed output token', () => {
    expect(worstCaseCostUsd(priced, messages, 1000)).toBeCloseTo((100 * 1 + 1000 * 10) / 1e6, 12);
  });

  it('is unknown without a price', () => {
    expect(worstCaseCostUsd({ ...priced, price: undefined }, messages, 1000)).toBeNull();
  });
});

describe('BudgetLedger', () => {
  it('refuses a call whose worst case would pass the cap, counting reservations of calls in flight', () => {
    const ledger = new BudgetLedger(0.025); // room for two worst cases of 0.0101, not three
    const settleA = ledger.reserve(priced, messages, 1000);
    ledger.reserve(priced, messages, 1000);
    expect(() => ledger.reserve(priced, messages, 1000)).toThrowError(expect.objectContaining({ code: 'run/budget' }));
    settleA(0.001); // the real cost frees the rest of A's reservation
    expect(() => ledger.reserve(priced, messages, 1000)).not.toThrow();
    expect(ledger.spentUsd).toBeCloseTo(0.001, 12);
  });

  it('allows spending up to the cap exactly, and not a cent past it', () => {
    // $1 per output token and no input price: worst cases are whole dollars, exact in floating point.
    const dollarPerToken: WorkerSpec = { ...priced, price: { input: 0, output: 1e6 } };
    const ledger = new BudgetLedger(4);
    ledger.reserve(dollarPerToken, messages, 2);
    ledger.reserve(dollarPerToken, messages, 2); // 2 + 2 = 4: exactly the cap
    expect(() => ledger.reserve(dollarPerToken, messages, 1)).toThrowError(
      expect.objectContaining({ code: 'run/budget', data: { worker: 'w', worstCaseUsd: 1, committedUsd: 4, capUsd: 4 } }),
    );
  });

  it('refuses any call to a worker without a price, saying what to do', () => {
    const ledger = new BudgetLedger(100);
    try {
      ledger.reserve({ ...priced, price: undefined }, messages, 10);
      expect.unreachable();
    } catch (e) {
      expect(BatonError.is(e, 'run/budget')).toBe(true);
      expect((e as Error).message).toMatch(/no price/);
    }
  });

  it('names the worker by its label and the budget in plain dollars', () => {
    const ledger = new BudgetLedger(0.5);
    try {
      ledger.reserve({ ...priced, label: 'OpenRouter model', price: undefined }, messages, 10);
      expect.unreachable();
    } catch (e) {
      expect((e as Error).message).toMatch(/^Worker "OpenRouter model" \(w\) has no price, so a \$0\.5 budget/);
    }
  });
});

import { describe, expect, it } from 'vitest';
import { costUsd, sumCosts } from '../../../../src/core/pricing/index.ts';

describe('sumCosts', () => {
  it('adds known costs', () => {
    expect(sumCosts([0.5, 0.25, 0])).toEqual({ totalUsd: 0.75, knownUsd: 0.75, unknownSteps: 0 });
  });
  it('keeps the total unknown when a step is unknown, and still reports the known part', () => {
    expect(sumCosts([0.5, null, 0.25])).toEqual({ totalUsd: null, knownUsd: 0.75, unknownSteps: 1 });
  });
  it('is zero for no steps', () => {
    expect(sumCosts([])).toEqual({ totalUsd: 0, knownUsd: 0, unknownSteps: 0 });
  });
});

describe('costUsd', () => {
  it('bills cached input at the cached rate and is null without a price', () => {
    const usage = { input: 1_000_000, output: 500_000, cached: 400_000 };
    expect(costUsd(usage, { input: 2, output: 8, cachedInput: 0.5 })).toBeCloseTo(0.6 * 2 + 0.4 * 0.5 + 0.5 * 8, 10);
    expect(costUsd(usage, { input: 2, output: 8 })).toBeCloseTo(2 + 4, 10);
    expect(costUsd(usage, undefined)).toBeNull();
  });
});

import type { Price, Usage } from './types.ts';

/**
 * Dollars for one call: what it was billed where the usage says, else its tokens at the price, or null when
 * the price is unknown (unknown is not free). Cached input tokens are billed at `cachedInput` when the price
 * has one; they are part of `input`.
 */
export function costUsd(usage: Usage, price: Price | undefined): number | null {
  if (usage.costUsd !== undefined) return usage.costUsd;
  if (!price) return null;
  const cached = Math.min(usage.cached ?? 0, usage.input);
  const cachedRate = price.cachedInput ?? price.input;
  return ((usage.input - cached) * price.input + cached * cachedRate + usage.output * price.output) / 1e6;
}

/** Sum of costs where any unknown makes the total unknown. */
export function addCosts(a: number | null, b: number | null): number | null {
  return a === null || b === null ? null : a + b;
}

/** Token counts added up; cached and reasoning counts only where some call reported them. */
export function sumUsage(usages: Iterable<Usage>): Usage {
  const total: Usage = { input: 0, output: 0 };
  for (const u of usages) {
    total.input += u.input;
    total.output += u.output;
    if (u.cached !== undefined) total.cached = (total.cached ?? 0) + u.cached;
    if (u.reasoning !== undefined) total.reasoning = (total.reasoning ?? 0) + u.reasoning;
  }
  return total;
}

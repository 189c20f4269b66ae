import type { Price, Usage } from '../providers/types.ts';

/**
 * Dollars for one call, or null when the price is unknown (unknown is not free).
 * Cached input tokens are billed at `cachedInput` when the price has one; they are part of `input`.
 */
export function costUsd(usage: Usage, price: Price | undefined): number | null {
  if (!price) return null;
  const cached = Math.min(usage.cached ?? 0, usage.input);
  const cachedRate = price.cachedInput ?? price.input;
  return ((usage.input - cached) * price.input + cached * cachedRate + usage.output * price.output) / 1e6;
}

/** Sum of costs where any unknown makes the total unknown. */
export function addCosts(a: number | null, b: number | null): number | null {
  return a === null || b === null ? null : a + b;
}

/** The few statistics the evaluation report needs, written out so a reader can check them. */

export const mean = (xs: readonly number[]) => (xs.length === 0 ? NaN : xs.reduce((s, x) => s + x, 0) / xs.length);

/**
 * Accuracy and its standard error with the item as the unit (questions are the sample; repeats of one
 * question are not independent of each other): each item's accuracy is the mean of its graded repeats,
 * the accuracy is the mean of those over items, and the standard error is their sample standard
 * deviation (n - 1) over sqrt(n items), the clustered error of Miller (2024, "Adding error bars to
 * evals") with equal weight per item. With one repeat it is the usual sqrt(p (1 - p) / (n - 1)).
 * NaN where it is undefined (no item; one item for the error).
 */
export function itemAccuracy(byItem: ReadonlyMap<string, readonly boolean[]>): { accuracy: number; stderr: number; items: number } {
  const perItem = [...byItem.values()].filter((xs) => xs.length > 0).map((xs) => mean(xs.map((x) => (x ? 1 : 0))));
  const n = perItem.length;
  const m = mean(perItem);
  const variance = n < 2 ? NaN : perItem.reduce((s, a) => s + (a - m) ** 2, 0) / (n - 1);
  return { accuracy: m, stderr: Math.sqrt(variance / n), items: n };
}

/** Nearest-rank percentile (p in 0..100) of unsorted values; NaN for none. */
export function percentile(values: readonly number[], p: number): number {
  if (values.length === 0) return NaN;
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.max(0, Math.ceil((p / 100) * sorted.length) - 1)];
}

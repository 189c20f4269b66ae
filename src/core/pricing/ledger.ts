/** Totals over the steps of a run, where a step of unknown price makes the total unknown, never smaller. */
import { addCosts } from './cost.ts';

interface CostTotals {
  /** Dollars for all steps, or null when any step's price is unknown. */
  totalUsd: number | null;
  /** Dollars for the steps whose price is known (a lower bound when some are unknown). */
  knownUsd: number;
  /** How many steps have no known price. */
  unknownSteps: number;
}

export function sumCosts(costs: Iterable<number | null>): CostTotals {
  let totalUsd: number | null = 0;
  let knownUsd = 0;
  let unknownSteps = 0;
  for (const cost of costs) {
    totalUsd = addCosts(totalUsd, cost);
    if (cost === null) unknownSteps++;
    else knownUsd += cost;
  }
  return { totalUsd, knownUsd, unknownSteps };
}

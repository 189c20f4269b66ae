/**
 * What a run's dollar figures leave unsaid, in the words the app and `baton run` both show: why a total
 * reads "$?" (a call failed before its provider said what it used, or a worker has no price), and that
 * simulated workers' dollars are their prices applied to calls nobody paid for.
 */
import { type WorkerSpec, workerName } from '../providers/index.ts';
import type { Episode, StepRecord } from './types.ts';
import { wordList } from './word-list.ts';

/** A run's priced parts: every step of every round, the pool they ran on, the Conductor's own calls. */
export interface RunSpending {
  steps: readonly StepRecord[];
  pool: readonly WorkerSpec[];
  /** The dollars of each billed Conductor call (a pool worker playing it); null where it has no price. */
  conductorCosts: readonly (number | null)[];
}

export function spendingOf(ep: Episode): RunSpending {
  const completions = [ep.completion, ...ep.rounds.map((r) => r.completion)];
  return {
    steps: [...ep.steps, ...ep.rounds.flatMap((r) => r.steps)],
    pool: ep.pool,
    conductorCosts: completions.flatMap((c) => (c.costUsd === undefined ? [] : [c.costUsd])),
  };
}

/** The dollars a run is known to have cost: every priced call, leaving out those whose cost is unknown (null). */
export function knownCostUsd(ep: Episode): number {
  const { steps, conductorCosts } = spendingOf(ep);
  return [...steps.map((s) => s.costUsd), ...conductorCosts].reduce<number>((sum, c) => sum + (c ?? 0), 0);
}

/** Simulated and replayed workers answer without a paid call: their dollars are what their prices would charge. */
export function isSimulated(spec: Pick<WorkerSpec, 'provider'> | undefined): boolean {
  return spec?.provider === 'simulated' || spec?.provider === 'replay';
}

interface UnknownCostCauses {
  /** Calls that failed: their provider never said how many tokens they used. */
  failedCalls: number;
  /** Workers, as a person names them, that answered but have no price. */
  unpriced: string[];
  /** The Conductor's own calls (a pool worker or a remote endpoint playing it) have no price. */
  conductorUnpriced: boolean;
}

export function unknownCostCauses(run: RunSpending): UnknownCostCauses {
  const unknown = run.steps.filter((s) => s.costUsd === null);
  const unpriced = unknown.filter((s) => !s.error).map((s) => (run.pool[s.worker] ? workerName(run.pool[s.worker]) : `"${s.workerId}"`));
  return {
    failedCalls: unknown.filter((s) => s.error).length,
    unpriced: [...new Set(unpriced)],
    conductorUnpriced: run.conductorCosts.includes(null),
  };
}

/** Why the run's dollars read "$?", in one sentence; undefined when nothing in them is unknown. */
export function unknownCostNote(run: RunSpending): string | undefined {
  const { failedCalls, unpriced, conductorUnpriced } = unknownCostCauses(run);
  const why = [
    ...(unpriced.length ? [`${unpriced.length === 1 ? 'worker' : 'workers'} ${wordList(unpriced)} ${unpriced.length === 1 ? 'has' : 'have'} no price`] : []),
    ...(conductorUnpriced ? ["the Conductor's calls have no price"] : []),
    ...(failedCalls === 1 ? ['a call failed before its provider said how many tokens it used'] : []),
    ...(failedCalls > 1 ? [`${failedCalls} calls failed before their provider said how many tokens they used`] : []),
  ];
  return why.length ? `$? means unknown: ${wordList(why)}.` : undefined;
}

/** Dollars of the steps that simulated workers answered (unknown ones left out). */
export function simulatedCostUsd(run: RunSpending): number {
  return run.steps.reduce((sum, s) => sum + (isSimulated(run.pool[s.worker]) && s.costUsd !== null ? s.costUsd : 0), 0);
}

/** That a run's dollars are partly or wholly simulated prices, in one sentence; undefined when none are. */
export function simulatedPriceNote(run: RunSpending): string | undefined {
  const priced = run.steps.filter((s) => s.costUsd !== null && s.costUsd > 0);
  const simulated = [...new Set(priced.filter((s) => isSimulated(run.pool[s.worker])).map((s) => workerName(run.pool[s.worker])))];
  if (simulated.length === 0) return undefined;
  const allSimulated = priced.every((s) => isSimulated(run.pool[s.worker])) && !run.conductorCosts.some((c) => c !== null && c > 0);
  if (allSimulated) return 'Simulated prices: the workers here are simulated, so no money was spent.';
  const one = simulated.length === 1;
  return `Simulated prices: ${wordList(simulated)} ${one ? 'is' : 'are'} simulated, so ${one ? 'its' : 'their'} dollars were not spent.`;
}

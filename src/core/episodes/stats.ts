import { isSimulated, simulatedCostUsd, spendingOf, unknownCostCauses } from './cost-notes.ts';
import type { Episode, StepRecord } from './types.ts';

interface WorkerStats {
  calls: number;
  input: number;
  output: number;
  /** Dollars, or null when any call's price was unknown (then see knownCostUsd). */
  costUsd: number | null;
  knownCostUsd: number;
  unknownCostCalls: number;
  /** Sum over calls. */
  latencyMs: number;
}

export interface EpisodeStats {
  count: number;
  /** Episodes with a reward that speaks for the Conductor (infrastructure failures excluded). */
  graded: number;
  correct: number;
  /** correct / graded, or null with nothing graded. */
  accuracy: number | null;
  /** Total dollars, or null when any episode's cost is unknown: unknown is not free. */
  costUsd: number | null;
  /** The sum over episodes whose cost is known. */
  knownCostUsd: number;
  /** Episodes whose cost is unknown. */
  unknownCount: number;
  /**
   * Why: episodes with a failed call, whose spending its provider never reported, and episodes with a
   * worker without a price (an episode can have both).
   */
  unknownCost: { failedCalls: number; noPrice: number };
  /** Of the known dollars, those paid for (network workers, a billed Conductor)... */
  spentUsd: number;
  /** ...and those of simulated and replayed workers: their prices applied to calls nobody paid for. */
  simulatedCostUsd: number;
  tokens: { input: number; output: number; cached: number; reasoning: number };
  byWorker: Record<string, WorkerStats>;
}

/** Folds episodes into EpisodeStats one at a time, so a store can stream through any number of them. */
export class StatsAccumulator {
  #count = 0;
  #graded = 0;
  #correct = 0;
  #knownCostUsd = 0;
  #unknownCount = 0;
  #unknownCost = { failedCalls: 0, noPrice: 0 };
  #spentUsd = 0;
  #simulatedCostUsd = 0;
  #tokens = { input: 0, output: 0, cached: 0, reasoning: 0 };
  #byWorker = new Map<string, WorkerStats>();

  add(ep: Episode): void {
    this.#count++;
    if (ep.reward && !ep.reward.infraError) {
      this.#graded++;
      if (ep.reward.correct) this.#correct++;
    }
    const spending = spendingOf(ep);
    if (ep.totals.costUsd === null) {
      this.#unknownCount++;
      const causes = unknownCostCauses(spending);
      if (causes.failedCalls > 0) this.#unknownCost.failedCalls++;
      if (causes.unpriced.length > 0 || causes.conductorUnpriced) this.#unknownCost.noPrice++;
    } else {
      this.#knownCostUsd += ep.totals.costUsd;
    }
    const simulated = simulatedCostUsd(spending);
    this.#simulatedCostUsd += simulated;
    // Added up from the parts rather than as total minus simulated, so an all-simulated run adds exactly 0.
    const paid = [...spending.steps.filter((s) => !isSimulated(ep.pool[s.worker])).map((s) => s.costUsd), ...spending.conductorCosts];
    this.#spentUsd += paid.reduce<number>((sum, c) => sum + (c ?? 0), 0);
    const u = ep.totals.usage;
    this.#tokens.input += u.input;
    this.#tokens.output += u.output;
    this.#tokens.cached += u.cached ?? 0;
    this.#tokens.reasoning += u.reasoning ?? 0;
    for (const step of ep.steps) this.#addStep(step);
    for (const round of ep.rounds) for (const step of round.steps) this.#addStep(step);
  }

  #addStep(step: StepRecord): void {
    // A step the run never started made no call.
    if (step.attempts === 0) return;
    let w = this.#byWorker.get(step.workerId);
    if (!w) {
      w = { calls: 0, input: 0, output: 0, costUsd: 0, knownCostUsd: 0, unknownCostCalls: 0, latencyMs: 0 };
      this.#byWorker.set(step.workerId, w);
    }
    w.calls++;
    w.input += step.usage.input;
    w.output += step.usage.output;
    w.latencyMs += step.latencyMs;
    if (step.costUsd === null) w.unknownCostCalls++;
    else w.knownCostUsd += step.costUsd;
    w.costUsd = w.unknownCostCalls > 0 ? null : w.knownCostUsd;
  }

  result(): EpisodeStats {
    return {
      count: this.#count,
      graded: this.#graded,
      correct: this.#correct,
      accuracy: this.#graded > 0 ? this.#correct / this.#graded : null,
      costUsd: this.#unknownCount > 0 ? null : this.#knownCostUsd,
      knownCostUsd: this.#knownCostUsd,
      unknownCount: this.#unknownCount,
      unknownCost: { ...this.#unknownCost },
      spentUsd: this.#spentUsd,
      simulatedCostUsd: this.#simulatedCostUsd,
      tokens: { ...this.#tokens },
      byWorker: Object.fromEntries([...this.#byWorker].map(([id, w]) => [id, { ...w }])),
    };
  }
}

/**
 * What a run may cost, before it starts: the worst case of the longest plan the settings allow, and the
 * typical cost of runs over this pool so far. Test: test/unit/core/orchestra/run-estimate.test.ts.
 */
import type { Episode } from '../episodes/index.ts';
import { costUsd } from '../pricing/index.ts';
import type { WorkerSpec } from '../providers/index.ts';
import { DEFAULT_STEP_MAX_TOKENS } from './execute-workflow.ts';
import { WORKER_PREAMBLE } from './worker-messages.ts';

interface PlanBounds {
  /** Steps per workflow. */
  maxSteps: number;
  /** Recursion rounds after the first. */
  recursion: number;
  /** The question's length in characters. */
  questionChars: number;
}

/** Room for a subtask and the tags around each earlier step, in characters: generous, as a worst case should be. */
const STEP_OVERHEAD_CHARS = 1_000;

/**
 * The most the workers' calls of one run can cost: every step of every round on the dearest worker, each
 * writing all the output tokens it may, and each seeing every earlier step's output in full (input at ~4
 * characters a token, as the run budget counts it). Null when a worker has no price: then no bound holds.
 */
export function worstCaseRunUsd(pool: readonly WorkerSpec[], bounds: PlanBounds): number | null {
  if (pool.length === 0) return 0;
  if (pool.some((w) => !w.price)) return null;
  const outputOf = (w: WorkerSpec) => w.maxTokens ?? DEFAULT_STEP_MAX_TOKENS;
  const longestOutputChars = Math.max(...pool.map(outputOf)) * 4;
  const calls = bounds.maxSteps * (bounds.recursion + 1);
  let total = 0;
  for (let k = 0; k < calls; k++) {
    const chars = WORKER_PREAMBLE.length + bounds.questionChars + STEP_OVERHEAD_CHARS + k * (longestOutputChars + STEP_OVERHEAD_CHARS);
    total += Math.max(...pool.map((w) => costUsd({ input: Math.ceil(chars / 4), output: outputOf(w) }, w.price)!));
  }
  return total;
}

/** The same workers in the same order (the Conductor's `Model id`s), whatever their other settings. */
const poolKey = (pool: readonly Pick<WorkerSpec, 'id' | 'model'>[]) => JSON.stringify(pool.map((w) => [w.id, w.model]));

/** The median dollars of the finished runs over this pool among `episodes`, and how many there were. */
export function typicalRunUsd(episodes: readonly Episode[], pool: readonly WorkerSpec[]): { usd: number | null; runs: number } {
  const key = poolKey(pool);
  const costs = episodes
    .filter((e) => e.status === 'ok' && e.totals.costUsd !== null && poolKey(e.pool) === key)
    .map((e) => e.totals.costUsd!)
    .sort((a, b) => a - b);
  const n = costs.length;
  if (n === 0) return { usd: null, runs: 0 };
  return { usd: n % 2 === 1 ? costs[(n - 1) / 2] : (costs[n / 2 - 1] + costs[n / 2]) / 2, runs: n };
}

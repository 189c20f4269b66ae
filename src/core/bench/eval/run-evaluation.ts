/**
 * The evaluation runner: every (item x method x repeat) run as an episode through the executor, at most
 * `concurrency` at once, under one dollar cap shared by all runs, stoppable by a signal. Each finished
 * episode is handed to `onEpisode` (to be stored) tagged eval:<id>, method:<m>, item:<id>, repeat:<r>;
 * runs whose finished episode is in `stored` are skipped, and every worker call goes through the call
 * log, so a resumed evaluation pays for nothing twice. Test: test/unit/core/bench/eval/run-evaluation.test.ts.
 */
import { knownCostUsd, type Episode } from '../../episodes/index.ts';
import { BatonError } from '../../errors/index.ts';
import { BudgetLedger, runEpisode, type RunOptions } from '../../orchestra/index.ts';
import type { WorkerModel } from '../../providers/index.ts';
import { hashString } from '../../random.ts';
import type { Task } from '../../task.ts';
import { memoryCallLog, recordingPool, type CallLog } from './call-log.ts';
import type { EvalMethod } from './eval-method.ts';
import { evalTags, isFinished, runKeyOf, runKeyString, type RunKey } from './run-key.ts';

export interface EvalProgress {
  /** Runs finished, stored ones included, and runs in all. */
  done: number;
  total: number;
  /** Graded runs and the right ones among them, over every method. */
  graded: number;
  correct: number;
  /** Dollars of the finished runs (stored ones included). */
  costUsd: number;
  elapsedMs: number;
  /** From this session's pace; undefined before its first run ends. */
  etaMs?: number;
  last?: Episode;
}

export interface EvaluationInput {
  id: string;
  /** Tasks with distinct itemIds (the loaders give them). */
  items: readonly Task[];
  methods: readonly EvalMethod[];
  repeats: number;
  concurrency: number;
  /** The pool of a repeat (simulated workers get a seed per repeat, so repeats differ). */
  pool: (repeat: number) => WorkerModel[];
  seed: number;
  /** Dollar cap over every worker call of the evaluation, stored runs included. */
  budgetUsd?: number;
  /** Step settings (timeouts, max tokens) for every run. */
  runOptions?: RunOptions;
  /** Episodes kept from an earlier, interrupted run of the same evaluation. */
  stored?: readonly Episode[];
  calls?: CallLog;
  signal?: AbortSignal;
  onEpisode?: (episode: Episode) => void | Promise<void>;
  onProgress?: (progress: EvalProgress) => void;
}

interface EvaluationResult {
  /** The finished episode of every run done, stored ones included, in no particular order. */
  episodes: Episode[];
  /** Runs left undone: stopped by the signal or the budget. */
  remaining: number;
  stopped: boolean;
  overBudget: boolean;
}

interface Job extends RunKey {
  task: Task;
  index: number;
  method: string;
}

function checkItems(items: readonly Task[]): void {
  const seen = new Set<string>();
  const twice = new Set<string>();
  for (const t of items) {
    if (t.itemId === undefined) throw new BatonError({ code: 'data/invalid', message: `Every item needs an id; "${t.question.slice(0, 40)}" has none.` });
    if (seen.has(t.itemId)) twice.add(t.itemId);
    seen.add(t.itemId);
  }
  if (twice.size > 0) throw new BatonError({ code: 'data/invalid', message: `Item ids must be distinct; repeated: ${[...twice].slice(0, 10).join(', ')}.` });
}

// What a stored run is known to have spent: its paid calls, also those of a run a later call failed in.
const costOf = knownCostUsd;

export async function runEvaluation(input: EvaluationInput): Promise<EvaluationResult> {
  checkItems(input.items);
  const started = performance.now();
  const byName = new Map(input.methods.map((m) => [m.name, m]));
  const finished = new Map<string, Episode>();
  for (const e of input.stored ?? []) {
    const key = runKeyOf(e, input.id);
    if (key && isFinished(e) && byName.has(key.method)) finished.set(runKeyString(key), e);
  }
  const jobs: Job[] = [];
  for (let repeat = 0; repeat < input.repeats; repeat++) {
    input.items.forEach((task, index) => {
      for (const m of input.methods) {
        const job = { task, index, method: m.name, item: task.itemId!, repeat };
        if (!finished.has(runKeyString(job))) jobs.push(job);
      }
    });
  }
  const total = input.items.length * input.methods.length * input.repeats;
  const spentBefore = [...finished.values()].reduce((s, e) => s + costOf(e), 0);
  const budget = input.budgetUsd === undefined ? undefined : new BudgetLedger(Math.max(0, input.budgetUsd - spentBefore));
  const calls = input.calls ?? memoryCallLog();
  const pools = new Map<number, WorkerModel[]>();
  const poolOf = (r: number) => pools.get(r) ?? pools.set(r, input.pool(r)).get(r)!;

  let overBudget = false;
  let ranNow = 0;
  const tally = { graded: 0, correct: 0, costUsd: 0 };
  const count = (e: Episode) => {
    tally.costUsd += costOf(e);
    if (e.reward && !e.reward.infraError) {
      tally.graded++;
      if (e.reward.correct) tally.correct++;
    }
  };
  finished.forEach(count);
  const progress = (last?: Episode) => {
    const elapsedMs = performance.now() - started;
    const left = total - finished.size;
    input.onProgress?.({
      done: finished.size,
      total,
      ...tally,
      elapsedMs,
      ...(ranNow > 0 ? { etaMs: (elapsedMs / ranNow) * left } : {}),
      ...(last ? { last } : {}),
    });
  };
  progress();

  const runJob = async (job: Job) => {
    const method = byName.get(job.method)!;
    const seed = hashString(`${input.seed}|${runKeyString(job)}`);
    const recorded = recordingPool(poolOf(job.repeat), runKeyString(job), calls);
    const conductor = await method.conductor({ task: job.task, index: job.index, repeat: job.repeat, seed, pool: recorded.pool, record: recorded.record });
    const episode = await runEpisode({
      task: job.task,
      pool: recorded.pool,
      conductor,
      options: { ...input.runOptions, ...method.runOptions, tags: evalTags(input.id, job), group: `eval:${input.id}` },
      ...(budget ? { budget } : {}),
      ...(input.signal ? { signal: input.signal } : {}),
    });
    if (episode.status === 'budget') overBudget = true;
    if (!isFinished(episode)) return;
    await input.onEpisode?.(episode);
    finished.set(runKeyString(job), episode);
    ranNow++;
    count(episode);
    progress(episode);
  };

  let next = 0;
  const lane = async () => {
    while (next < jobs.length && !input.signal?.aborted && !overBudget) await runJob(jobs[next++]);
  };
  await Promise.all(Array.from({ length: Math.max(1, Math.min(input.concurrency, jobs.length)) }, lane));
  return {
    episodes: [...finished.values()],
    remaining: total - finished.size,
    stopped: input.signal?.aborted ?? false,
    overBudget,
  };
}

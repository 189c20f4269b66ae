/**
 * What the Evaluate page and the evaluator service exchange (through src/client): an evaluation's settings, as
 * plain data that crosses to the evaluator worker and is stored with the evaluation (so it can be resumed after a
 * reload): where the items come from, the methods (core/bench's method strings, as `baton eval --method`),
 * repeats, concurrency, budget, seed and the pool as it was at the start; their defaults and limits; the progress
 * the page watches; the service's and the stored evaluations' types. Types, constants and a label: the page's first
 * paint carries them.
 */
import type { BadRow, BuiltInDataset, RowMapping, UserFileFormat } from '../../core/bench/datasets/index.ts';
import type { EvalProgress } from '../../core/bench/eval/index.ts';
import type { WorkerSpec } from '../../core/providers/index.ts';
import type { RecordedPoolName } from '../../core/providers/replay/index.ts';
import type { EvaluationStatus } from './evaluation-db.ts';

export type { EvaluatorService } from './evaluator-service.ts';
export type { EvaluationStatus, StoredEvaluation } from './evaluation-db.ts';

// By path: the loaders beside them in core/bench/datasets' index stay out of the first paint.
export { BUILT_IN_DATASETS, formatOfFile, type BuiltInDataset, type UserFileFormat } from '../../core/bench/datasets/built-in.ts';

/** The user's rows (files and Hub datasets): how they become items, and what becomes of those that cannot. */
export interface UserRows extends RowMapping {
  /** Leave rows that cannot become items out (they are still listed with the evaluation); else they stop the start. */
  skipBad: boolean;
}

export type EvalDataSource =
  | { from: 'builtin'; name: BuiltInDataset; subjects?: string[] }
  /** The file's bytes travel beside the settings; the items read from it are stored with the evaluation. */
  | ({ from: 'file'; name: string; format: UserFileFormat } & UserRows)
  /** `owner/name[:config[:split]]`, read through the datasets server when online. */
  | ({ from: 'hub'; dataset: string } & UserRows)
  /**
   * A recorded pool's source's held-out questions, split by the seed as `baton train` splits them (`baton eval
   * --dataset <source> --pool <pool>`); the settings' pool is the recorded pool's workers.
   */
  | { from: 'recorded'; pool: RecordedPoolName };

export interface EvalSettings {
  data: EvalDataSource;
  /** First item (0-based) and most items to take. */
  offset: number;
  limit?: number;
  methods: string[];
  repeats: number;
  concurrency: number;
  /** Dollar cap over every call of the evaluation; absent: none. */
  budgetUsd?: number;
  seed: number;
  maxSteps: number;
  pool: WorkerSpec[];
  /** Plan files the user picked, by name: the completion texts of fixed:<name> and conductor:fixed:<name>. */
  plans?: Record<string, string>;
}

export const EVAL_LIMITS = { repeats: 20, concurrency: 16, maxSteps: 10 } as const;

export const DEFAULT_EVAL: Omit<EvalSettings, 'pool' | 'methods'> = {
  data: { from: 'builtin', name: 'gsm8k' },
  offset: 0,
  limit: 20,
  repeats: 1,
  concurrency: 2,
  seed: 0,
  maxSteps: 5,
};

/** A short name for the evaluation's data, as lists show it: "gsm8k 0–20", "my.jsonl", "hf:owner/name", "routerbench-4 held out". */
export function dataLabel(s: Pick<EvalSettings, 'data' | 'offset' | 'limit'>): string {
  const d = s.data;
  const base =
    d.from === 'builtin'
      ? d.subjects?.length
        ? `${d.name} (${d.subjects.join(', ')})`
        : d.name
      : d.from === 'hub'
        ? `hf:${d.dataset}`
        : d.from === 'recorded'
          ? `${d.pool} held out`
          : d.name;
  const window = s.offset === 0 && s.limit === undefined ? '' : ` [${s.offset}–${s.limit === undefined ? 'end' : s.offset + s.limit})`;
  return `${base}${window}`;
}

export type EvaluatorStatus = 'idle' | 'loading' | 'running' | 'stopping' | Exclude<EvaluationStatus, 'running'>;

/**
 * What the page shows of the evaluation under way (or the last one run here), sent whole on every change: core's
 * counts (runs, graded, right, dollars, time), without the last episode, and what the worker adds.
 */
export interface EvaluationProgress extends Omit<EvalProgress, 'last'> {
  status: EvaluatorStatus;
  evalId?: string;
  /** What it does now, in words. */
  phase?: string;
  error?: { code: string; message: string };
  /** Something went wrong that did not stop the evaluation (an episode that could not be stored). */
  warning?: string;
}

/** What the page learns of its data before a start: how many items, and every row that is not one. */
export interface DataPreview {
  items: number;
  bad: BadRow[];
  unit: 'line' | 'row';
  /** The first item's question, to check the mapping by eye. */
  first?: string;
}

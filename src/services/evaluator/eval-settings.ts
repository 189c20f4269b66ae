/**
 * An Evaluate page evaluation's settings, as plain data that crosses to the evaluator worker and is
 * stored with the evaluation (so it can be resumed after a reload): where the items come from, the
 * methods (core/bench's method strings, as `baton eval --method`), repeats, concurrency, budget, seed
 * and the pool as it was at the start. Only types and constants here: the page's first paint carries them (client/index.ts).
 */
import type { WorkerSpec } from '../../core/providers/index.ts';
import type { TaskKind } from '../../core/task.ts';

export const BUILT_IN_DATASETS = ['gsm8k', 'math500', 'mmlu', 'aime2024', 'humaneval'] as const;
export type BuiltInDataset = (typeof BUILT_IN_DATASETS)[number];

export type UserFileFormat = 'jsonl' | 'csv' | 'parquet';

/** How the user's rows become items (user files and Hub datasets). */
export interface RowMapping {
  /** `question=..,answer=..,kind=..,choices=..,id=..` (core/bench's parseFieldMap); '' keeps the default columns. */
  map: string;
  /** Kind of rows that name none; absent: the kind each answer suggests. */
  kind?: TaskKind;
  /** Leave rows that cannot become items out (they are still listed with the evaluation); else they stop the start. */
  skipBad: boolean;
}

export type EvalDataSource =
  | { from: 'builtin'; name: BuiltInDataset; subjects?: string[] }
  /** The file's bytes travel beside the settings; the items read from it are stored with the evaluation. */
  | ({ from: 'file'; name: string; format: UserFileFormat } & RowMapping)
  /** `owner/name[:config[:split]]`, read through the datasets server when online. */
  | ({ from: 'hub'; dataset: string } & RowMapping);

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

/** The file format its name says, or undefined for a name Baton reads no rows from. */
export function formatOfFile(name: string): UserFileFormat | undefined {
  const ext = name.toLowerCase().split('.').pop();
  return ext === 'jsonl' || ext === 'json' ? 'jsonl' : ext === 'csv' ? 'csv' : ext === 'parquet' ? 'parquet' : undefined;
}

/** A short name for the evaluation's data, as lists show it: "gsm8k 0–20", "my.jsonl", "hf:owner/name". */
export function dataLabel(s: Pick<EvalSettings, 'data' | 'offset' | 'limit'>): string {
  const d = s.data;
  const base = d.from === 'builtin' ? (d.subjects?.length ? `${d.name} (${d.subjects.join(', ')})` : d.name) : d.from === 'hub' ? `hf:${d.dataset}` : d.name;
  const window = s.offset === 0 && s.limit === undefined ? '' : ` [${s.offset}–${s.limit === undefined ? 'end' : s.offset + s.limit})`;
  return `${base}${window}`;
}

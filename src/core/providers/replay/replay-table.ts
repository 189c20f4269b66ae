import { BatonError } from '../../errors/index.ts';
import type { Usage } from '../types.ts';

/**
 * What one model did on one question: its correctness, its response where it was recorded, and its tokens
 * where they were counted (a replay worker reports them, so the call costs them at the worker's price).
 */
export interface ReplayRecord {
  correct: boolean;
  response?: string;
  usage?: Usage;
}

/** Recorded outputs of real models, keyed by normalised question text, then by model column name. */
export interface ReplayTable {
  /** Column names as in the source files, e.g. 'gpt-4-1106-preview'. */
  models: string[];
  entries: Map<string, Record<string, ReplayRecord>>;
}

/**
 * The lookup key of a question: case, quote style, spacing, MMLU's standard header ("The following are
 * multiple choice questions about {subject}.", which RouteLLM's records leave out) and a trailing
 * "Answer:" do not matter.
 */
export function normalizeQuestion(text: string): string {
  return text
    .replace(/[\u2018\u2019]/g, "'")
    .replace(/[\u201c\u201d]/g, '"')
    .replace(/\s+/g, ' ')
    .trim()
    .replace(/^the following are multiple choice questions (?:\(with answers\) )?about [^.]*\.\s*/i, '')
    .replace(/\s*answer:$/i, '')
    .toLowerCase();
}

/** One table from several (e.g. the 57 MMLU subject files); later tables win on a repeated question. */
export function mergeReplayTables(tables: ReplayTable[]): ReplayTable {
  const entries = new Map<string, Record<string, ReplayRecord>>();
  for (const t of tables) for (const [q, rec] of t.entries) entries.set(q, { ...entries.get(q), ...rec });
  return { models: [...new Set(tables.flatMap((t) => t.models))], entries };
}

/**
 * The table column a worker's `model` names: exact, or case-insensitive with or without the organisation
 * prefix ("mixtral-8x7b-instruct-v0.1" finds "mistralai/Mixtral-8x7B-Instruct-v0.1").
 */
export function replayColumn(table: ReplayTable, model: string): string {
  const want = model.toLowerCase();
  const found =
    table.models.find((m) => m === model) ?? table.models.find((m) => m.toLowerCase() === want || m.toLowerCase().split('/').pop() === want.split('/').pop());
  if (!found) {
    throw new BatonError({
      code: 'provider/unknown-model',
      message: `The replay data has no model "${model}"; it has: ${table.models.join(', ')}.`,
      data: { model, available: table.models },
    });
  }
  return found;
}

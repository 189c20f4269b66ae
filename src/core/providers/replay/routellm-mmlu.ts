/**
 * Real recorded answers as a training ground for a cost-aware Conductor (issue 11): RouteLLM's records
 * of GPT-4 (gpt-4-1106-preview) and Mixtral-8x7B-Instruct over the MMLU test set, as a pool of two replay
 * workers at their list prices, and the questions both were recorded on, in MMLU's standard prompt.
 * Which worker is worth its price depends on the subject, so a Conductor must read it from the header.
 * Test: test/unit/core/providers/replay/routellm-mmlu.test.ts.
 */
import { mmluStandardPrompt, mmluSubject } from '../../bench/datasets/index.ts';
import { hashString } from '../../random.ts';
import type { Task } from '../../task.ts';
import type { TaskSplit } from '../simulated/index.ts';
import type { WorkerSpec } from '../types.ts';
import { normalizeQuestion, replayColumn, type ReplayTable } from './replay-table.ts';

/** Dollars per million tokens: OpenAI's list price of gpt-4-1106-preview, and a common hosted price of Mixtral-8x7B. */
export const ROUTELLM_MMLU_POOL: readonly WorkerSpec[] = [
  { id: 'gpt-4', provider: 'replay', model: 'gpt-4-1106-preview', label: 'GPT-4 (recorded)', price: { input: 10, output: 30 } },
  { id: 'mixtral', provider: 'replay', model: 'mistralai/Mixtral-8x7B-Instruct-v0.1', label: 'Mixtral 8x7B (recorded)', price: { input: 0.6, output: 0.6 } },
];

/**
 * The MMLU tasks (loadMmluCsv's, item ids "subject/row") that every pool worker has a record of, in the
 * standard prompt, split by the seed: heldOutShare of every subject's questions held out (so the held-out
 * set weighs subjects as MMLU does), the rest to train on, both in a seeded order.
 */
export function routellmMmluTaskSet(mmlu: readonly Task[], table: ReplayTable, options: { seed?: number; heldOutShare?: number } = {}): TaskSplit {
  const seed = options.seed ?? 0;
  const share = options.heldOutShare ?? 0.1;
  const columns = ROUTELLM_MMLU_POOL.map((w) => replayColumn(table, w.model));
  const recorded = mmlu.filter((t) => {
    const record = table.entries.get(normalizeQuestion(t.question));
    return record !== undefined && columns.every((c) => record[c] !== undefined);
  });
  const shuffled = recorded
    .map((t) => ({ t, key: hashString(`${seed} ${t.itemId}`) }))
    .sort((a, b) => a.key - b.key)
    .map(({ t }): Task => ({ ...t, question: mmluStandardPrompt(mmluSubject(t), t.question) }));
  const size = new Map<string, number>();
  for (const t of shuffled) size.set(mmluSubject(t), (size.get(mmluSubject(t)) ?? 0) + 1);
  const taken = new Map<string, number>();
  const split: TaskSplit = { train: [], heldOut: [] };
  for (const t of shuffled) {
    const subject = mmluSubject(t);
    const n = taken.get(subject) ?? 0;
    taken.set(subject, n + 1);
    (n < Math.round(share * size.get(subject)!) ? split.heldOut : split.train).push(t);
  }
  return split;
}

/**
 * The questions of the routellm-mmlu pool (core/providers/replay): the MMLU questions both its workers
 * were recorded on, in MMLU's standard prompt, so a Conductor can read the subject from the header.
 * Test: test/unit/node/inputs/replay-data.test.ts.
 */
import { normalizeQuestion, replayColumn, ROUTELLM_MMLU_POOL, type ReplayTable } from '../../providers/replay/index.ts';
import { hashString } from '../../random.ts';
import type { Task, TaskSplit } from '../../task.ts';
import { mmluStandardPrompt, mmluSubject } from '../datasets/loaders.ts';

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

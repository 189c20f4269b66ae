/**
 * The questions of a recorded source (zeroeval, routerbench: core/providers/replay's recorded pools), split
 * into train and held-out: by the source's own split where it has one (RouterBench's train and test files),
 * else by the seed, the same share of every set held out. Test: test/unit/core/bench/task-sets/recorded.test.ts.
 */
import type { RecordedQuestion, RecordedSource } from '../../providers/replay/index.ts';
import { hashString } from '../../random.ts';
import type { Task, TaskSplit } from '../../task.ts';

interface RecordedSplitOptions {
  seed?: number;
  /** Share of each set held out where the source does not split (default 0.2). */
  heldOutShare?: number;
}

/**
 * The tasks of every set (item ids `<set>/<id>`, dataset `<source>/<set>`) that every model of the source
 * has a record of, in a seeded order. A question where some record's grade is the source's (Baton could
 * not grade its text) is left out: replaying it would not give the recorded correctness.
 */
export function recordedTaskSet(
  source: RecordedSource,
  sets: readonly { set: string; questions: readonly RecordedQuestion[] }[],
  modelIds: readonly string[],
  options: RecordedSplitOptions = {},
): TaskSplit {
  const seed = options.seed ?? 0;
  const share = options.heldOutShare ?? 0.2;
  const split: TaskSplit = { train: [], heldOut: [] };
  for (const { set, questions } of sets) {
    const usable = questions.filter((q) => modelIds.every((m) => q.records[m] !== undefined && q.records[m].gradedBy !== 'source'));
    const tasks = usable
      .map((q) => {
        const task: Task = {
          question: q.question,
          answer: q.answer,
          kind: q.kind,
          ...(q.choices ? { choices: q.choices } : {}),
          dataset: `${source}/${set}`,
          itemId: `${set}/${q.id}`,
        };
        return { task, split: q.split, key: hashString(`${seed} ${set}/${q.id}`) };
      })
      .sort((a, b) => a.key - b.key);
    const held = Math.round(share * tasks.length);
    tasks.forEach((t, i) => {
      ((t.split ? t.split === 'test' : i < held) ? split.heldOut : split.train).push(t.task);
    });
  }
  const shuffled = (tasks: Task[]) =>
    tasks
      .map((t) => ({ t, key: hashString(`${seed} ${t.itemId}`) }))
      .sort((a, b) => a.key - b.key)
      .map(({ t }) => t);
  return { train: shuffled(split.train), heldOut: shuffled(split.heldOut) };
}

/**
 * The questions of a recorded source (zeroeval, routerbench: core/providers/replay's recorded pools), split
 * into train and held-out: by the source's own split where it has one (RouterBench's train and test files),
 * else by the seed, the same share of every set held out. Test: test/unit/core/bench/task-sets/recorded.test.ts.
 */
import { isSourceGraded, SOURCE_VERDICT, type RecordedQuestion, type RecordedSource } from '../../providers/replay/index.ts';
import { hashString } from '../../random.ts';
import type { Task, TaskSplit } from '../../task.ts';

interface RecordedSplitOptions {
  seed?: number;
  /** Share of each set held out where the source does not split (default 0.2). */
  heldOutShare?: number;
}

/**
 * The tasks of every set (item ids `<set>/<id>`, dataset `<source>/<set>`) that every model named has a
 * record of, in a seeded order. A question only the source could grade (MBPP without its tests) is graded
 * on the source's verdict, which its replayed records end with (core/providers/replay's SOURCE_VERDICT).
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
    const usable = questions.filter((q) => modelIds.every((m) => q.records[m] !== undefined));
    const tasks = usable
      .map((q) => {
        const gold = isSourceGraded(q) ? { answer: SOURCE_VERDICT.right, kind: 'exact' as const } : { answer: q.answer, kind: q.kind };
        const task: Task = {
          question: q.question,
          ...gold,
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

/**
 * The task sets a training run names (`baton train --tasks`, the Train page), each with its held-out
 * split, read through a host's DataFiles (core/bench/datasets). Tests: test/unit/node/inputs/task-file.test.ts
 * (from data/ on disk), test/unit/node/inputs/replay-data.test.ts (routellm-mmlu).
 */
import type { Task, TaskSplit } from '../../task.ts';
import { completeModels, ROUTELLM_MMLU_POOL } from '../../providers/replay/index.ts';
import { builtInTasks, readRecordedSource, readShippedReplay, type DataFiles } from '../datasets/data-files.ts';
import { expertsTaskSet, shortExpertsTaskSet } from './experts.ts';
import { recordedTaskSet } from './recorded.ts';
import { routellmMmluTaskSet } from './routellm-mmlu.ts';

/**
 * experts: MMLU and GSM8K questions for the experts pool; experts-short: generated questions of the same
 * two kinds, a dozen tokens each; routellm-mmlu: the MMLU questions of RouteLLM's records; zeroeval and
 * routerbench: the questions of those recorded sources (docs/pools.md).
 */
export const BUILT_IN_TASK_SETS = ['experts', 'experts-short', 'routellm-mmlu', 'zeroeval', 'routerbench'] as const;
export type BuiltInTaskSet = (typeof BUILT_IN_TASK_SETS)[number];

export const isBuiltInTaskSet = (name: string): name is BuiltInTaskSet => (BUILT_IN_TASK_SETS as readonly string[]).includes(name);

interface TaskSetOptions {
  /** Draws the questions and their split. */
  seed: number;
  /** experts: questions of each kind (expertsTaskSet's default without). */
  perKind?: number;
}

/** A built-in task set; experts draws from every MMLU subject the files hold (the tab bundles a few short ones). */
export async function builtInTaskSet(name: BuiltInTaskSet, files: DataFiles, options: TaskSetOptions): Promise<TaskSplit> {
  const { seed } = options;
  switch (name) {
    case 'experts-short':
      return shortExpertsTaskSet({ seed });
    case 'experts': {
      const [mmlu, gsm8k] = await Promise.all([builtInTasks('mmlu', files), builtInTasks('gsm8k', files)]);
      return expertsTaskSet(mmlu, gsm8k, { seed, ...(options.perKind !== undefined ? { perKind: options.perKind } : {}) });
    }
    case 'routellm-mmlu': {
      const [mmlu, replay] = await Promise.all([
        builtInTasks('mmlu', files),
        readShippedReplay(
          files,
          ROUTELLM_MMLU_POOL.map((w) => w.model),
        ),
      ]);
      return routellmMmluTaskSet(mmlu, replay, { seed });
    }
    case 'zeroeval':
    case 'routerbench': {
      const { sets, models } = await readRecordedSource(files, name);
      // Every question: the models of the source's pool of all models (recordedPool's) have a record of each.
      return recordedTaskSet(
        name,
        sets,
        completeModels(
          models,
          sets.flatMap((s) => s.questions),
        ),
        { seed },
      );
    }
  }
}

/**
 * What `baton eval --dataset <task set>` and the Evaluate page evaluate: the set's held-out questions as
 * training splits them by the seed, from `offset`, at most `limit` of them.
 */
export async function builtInHeldOut(name: BuiltInTaskSet, files: DataFiles, window: { seed: number; offset: number; limit?: number }): Promise<Task[]> {
  const { heldOut } = await builtInTaskSet(name, files, { seed: window.seed });
  return heldOut.slice(window.offset, window.limit === undefined ? undefined : window.offset + window.limit);
}

/**
 * The Train page's questions and recorded pools, by core/bench's builtInTaskSet as `baton train --tasks` reads
 * them: 'experts-short', generated, or 'experts', GSM8K and a few short MMLU subjects, or a recorded source's
 * questions (zeroeval, routerbench), whose files services/recorded says. Each data file is a chunk or asset of its own that
 * only a run using it loads, so the tab draws from fewer MMLU subjects than the CLI does from the whole of data/.
 */
import { lazyDataFiles } from '../../core/bench/datasets/index.ts';
import { builtInTaskSet } from '../../core/bench/task-sets/index.ts';
import type { TaskSplit } from '../../core/task.ts';
import { DATA_ROOT, RECORDED_LOADERS } from '../recorded/index.ts';
import type { TrainingConfig } from './api.ts';

/** Questions per kind: enough for many steps of a few questions, and a held-out set apart. */
const PER_KIND = 100;

const files = lazyDataFiles(
  {
    ...import.meta.glob<string>(
      ['../../../data/gsm8k/test.jsonl', '../../../data/mmlu/test/{global_facts,management,medical_genetics,world_religions}_test.csv'],
      {
        query: '?raw',
        import: 'default',
      },
    ),
    ...RECORDED_LOADERS,
  },
  DATA_ROOT,
);

export const trainingTasks = (tasks: TrainingConfig['tasks'], seed: number): Promise<TaskSplit> => builtInTaskSet(tasks, files, { seed, perKind: PER_KIND });

/**
 * The Train page's questions: 'experts-short', generated (core's shortExpertsTaskSet, as `baton train
 * --tasks experts-short`), or 'experts', GSM8K and a few short MMLU subjects from data/, bundled into a
 * chunk of their own that only such a run loads, split by core's expertsTaskSet (the draw `baton train
 * --tasks experts` makes from the whole of data/, here over fewer MMLU subjects).
 */
import { expertsTaskSet, loadGsm8k, loadMmluCsv, shortExpertsTaskSet } from '../../core/bench/index.ts';
import type { TaskSplit } from '../../core/task.ts';
import type { TrainingConfig } from './training-config.ts';

/** Questions per kind: enough for many steps of a few questions, and a held-out set apart. */
const PER_KIND = 100;

export async function trainingTasks(tasks: TrainingConfig['tasks'], seed: number): Promise<TaskSplit> {
  if (tasks === 'experts-short') return shortExpertsTaskSet({ seed });
  const [gsm8k, ...mmlu] = await Promise.all([
    import('../../../data/gsm8k/test.jsonl?raw'),
    import('../../../data/mmlu/test/global_facts_test.csv?raw'),
    import('../../../data/mmlu/test/management_test.csv?raw'),
    import('../../../data/mmlu/test/medical_genetics_test.csv?raw'),
    import('../../../data/mmlu/test/world_religions_test.csv?raw'),
  ]);
  const subjects = ['global_facts', 'management', 'medical_genetics', 'world_religions'];
  const mcq = mmlu.flatMap((m, i) => loadMmluCsv(m.default, subjects[i]));
  return expertsTaskSet(mcq, loadGsm8k(gsm8k.default), { seed, perKind: PER_KIND });
}

/**
 * The Train page's questions and recorded pools, by core/bench's builtInTaskSet as `baton train --tasks` reads
 * them: 'experts-short', generated, or 'experts', GSM8K and a few short MMLU subjects, or a recorded source's
 * questions (zeroeval, routerbench) with its pools' records. Each data file is a chunk or asset of its own that
 * only a run using it loads, so the tab draws from fewer MMLU subjects than the CLI does from the whole of data/.
 */
import { lazyDataFiles, readRecordedModels, readRecordedSets, readShippedReplay } from '../../core/bench/datasets/index.ts';
import { builtInTaskSet } from '../../core/bench/task-sets/index.ts';
import { BatonError } from '../../core/errors/index.ts';
import type { WorkerSpec } from '../../core/providers/index.ts';
import { RECORDED_POOLS, recordedPool, type RecordedPoolName, type ReplayTable } from '../../core/providers/replay/index.ts';
import type { TaskSplit } from '../../core/task.ts';
import type { TrainingConfig } from './api.ts';

/** Questions per kind: enough for many steps of a few questions, and a held-out set apart. */
const PER_KIND = 100;

const DATA = '../../../data/';

/** The gzipped recorded answers come as assets, fetched when a run reads them. */
const recordedUrls = import.meta.glob<string>('../../../data/{zeroeval,routerbench}/*.jsonl.gz', { query: '?url', import: 'default' });

async function fetchBytes(url: string): Promise<Uint8Array> {
  const response = await fetch(url);
  if (!response.ok) throw new BatonError({ code: 'data/unreachable', message: `Could not read ${url} (${response.status}).` });
  return new Uint8Array(await response.arrayBuffer());
}

const files = lazyDataFiles(
  {
    ...import.meta.glob<string>(
      [
        '../../../data/gsm8k/test.jsonl',
        '../../../data/mmlu/test/{global_facts,management,medical_genetics,world_religions}_test.csv',
        '../../../data/{zeroeval,routerbench}/models.json',
      ],
      { query: '?raw', import: 'default' },
    ),
    ...Object.fromEntries(Object.entries(recordedUrls).map(([path, url]) => [path, async () => fetchBytes(await url())])),
  },
  DATA,
);

export const trainingTasks = (tasks: TrainingConfig['tasks'], seed: number): Promise<TaskSplit> => builtInTaskSet(tasks, files, { seed, perKind: PER_KIND });

/** A recorded pool's workers, as `baton train --pool` makes them. */
export async function recordedTrainingPool(name: RecordedPoolName): Promise<WorkerSpec[]> {
  const source = RECORDED_POOLS[name].source;
  const [models, sets] = await Promise.all([readRecordedModels(files, source), readRecordedSets(files, source)]);
  return recordedPool(
    name,
    models,
    sets.flatMap((s) => s.questions),
  );
}

/** The records replay workers of a recorded pool read. */
export const recordedReplay = (models: readonly string[]): Promise<ReplayTable> => readShippedReplay(files, models);

/**
 * Task sets for training: a JSONL file of tasks {question, answer, kind, choices?, dataset?, itemId?}
 * (core's Task), or a built-in task set (core/bench's BUILT_IN_TASK_SETS) or data set read from data/.
 */
import {
  BUILT_IN_DATASETS,
  builtInTasks,
  builtInTaskSet,
  isBuiltInDataset,
  isBuiltInTaskSet,
  type BuiltInDataset,
  type BuiltInTaskSet,
} from '../../core/bench/index.ts';
import { parseJsonl } from '../../core/formats/index.ts';
import { parseCodeGold } from '../../core/reward/index.ts';
import { TASK_KINDS, type Task, type TaskKind, type TaskSplit } from '../../core/task.ts';
import { NODE_DATA_FILES } from './data-files.ts';
import { CliError, readTextFlag, type CliIo } from '../cli/index.ts';

export { isBuiltInTaskSet };

export function parseTaskFile(text: string, source: string): Task[] {
  return parseJsonl(text, source).map((r, i) => {
    const where = `${source}, line ${i + 1}`;
    if (typeof r.question !== 'string' || r.question.trim() === '') throw new CliError(`${where}: "question" must be a non-empty string`);
    if (typeof r.answer !== 'string') throw new CliError(`${where}: "answer" must be a string (the gold answer the reward grades against)`);
    if (!TASK_KINDS.includes(r.kind as TaskKind) || r.kind === 'open') {
      throw new CliError(`${where}: "kind" must be one of ${TASK_KINDS.filter((k) => k !== 'open').join(', ')}, got ${JSON.stringify(r.kind)}`);
    }
    if (r.kind === 'code') {
      try {
        parseCodeGold(r.answer);
      } catch (e) {
        throw new CliError(`${where}: ${(e as Error).message}`);
      }
    }
    const choices = Array.isArray(r.choices) && r.choices.every((c) => typeof c === 'string') ? { choices: r.choices as string[] } : {};
    return {
      question: r.question,
      answer: r.answer,
      kind: r.kind as TaskKind,
      ...choices,
      ...(typeof r.dataset === 'string' ? { dataset: r.dataset } : {}),
      itemId: typeof r.itemId === 'string' ? r.itemId : String(i),
    };
  });
}

/** The built-in data sets a --tasks flag takes whole: all but humaneval, whose code the reward server cannot run. */
export const TASK_DATASETS: readonly BuiltInDataset[] = BUILT_IN_DATASETS.filter((d) => d !== 'humaneval');

/** A built-in task set, from data/ on disk. */
export const readBuiltInTaskSet = (name: BuiltInTaskSet, seed: number): Promise<TaskSplit> => builtInTaskSet(name, NODE_DATA_FILES, { seed });

/**
 * The tasks a --tasks flag names: a built-in task set (split train/held-out by the seed), a built-in
 * dataset (all of it to train on), or a JSONL task file.
 */
export async function readTasksFlag(io: CliIo, value: string, seed: number): Promise<TaskSplit> {
  if (isBuiltInTaskSet(value)) return readBuiltInTaskSet(value, seed);
  if (isBuiltInDataset(value) && TASK_DATASETS.includes(value)) return { train: await builtInTasks(value, NODE_DATA_FILES), heldOut: [] };
  return { train: parseTaskFile(await readTextFlag(io, 'tasks', value), value), heldOut: [] };
}

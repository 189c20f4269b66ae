/**
 * Task sets for training: a JSONL file of tasks {question, answer, kind, choices?, dataset?, itemId?}
 * (core's Task), or a built-in set: the experts pool's MMLU and GSM8K questions read from data/
 * ('experts') or short generated questions of the same two kinds ('experts-short'), or the MMLU
 * questions of RouteLLM's records for the routellm-mmlu pool ('routellm-mmlu').
 */
import { readdir, readFile } from 'node:fs/promises';
import { expertsTaskSet, loadAime, loadGsm8k, loadMath500, loadMmluCsv, routellmMmluTaskSet, shortExpertsTaskSet } from '../core/bench/index.ts';
import { parseJsonl } from '../core/formats/index.ts';
import { parseCodeGold } from '../core/reward/index.ts';
import { TASK_KINDS, type Task, type TaskKind, type TaskSplit } from '../core/task.ts';
import { CliError, readTextFlag, type CliIo } from './io.ts';
import { readShippedReplay } from './replay-data.ts';

const DATA = new URL('../../data/', import.meta.url);

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

async function readMmlu(): Promise<Task[]> {
  const mmlu = new URL('mmlu/test/', DATA);
  const files = (await readdir(mmlu)).filter((f) => f.endsWith('.csv')).sort();
  return (await Promise.all(files.map(async (f) => loadMmluCsv(await readFile(new URL(f, mmlu), 'utf8'), f.replace(/_test\.csv$/, ''))))).flat();
}

const readData = (path: string) => readFile(new URL(path, DATA), 'utf8');

/** The experts set: every MMLU subject and GSM8K from data/, drawn and split by the seed. */
export async function readExpertsTasks(seed: number): Promise<TaskSplit> {
  return expertsTaskSet(await readMmlu(), loadGsm8k(await readData('gsm8k/test.jsonl')), { seed });
}

/** The gradable datasets Baton ships in data/, by the name a --tasks flag gives them. */
export const BUILTIN_DATASETS: Record<string, () => Promise<Task[]>> = {
  gsm8k: async () => loadGsm8k(await readData('gsm8k/test.jsonl')),
  math500: async () => loadMath500(await readData('math500/test.jsonl')),
  aime2024: async () => loadAime(await readData('aime2024/test.jsonl')),
  mmlu: readMmlu,
};

/**
 * The tasks a --tasks flag names: a built-in task set (split train/held-out by the seed), a built-in
 * dataset (all of it to train on), or a JSONL task file.
 */
export async function readTasksFlag(io: CliIo, value: string, seed: number): Promise<TaskSplit> {
  if (isBuiltInTaskSet(value)) return readBuiltInTaskSet(value, seed);
  if (Object.hasOwn(BUILTIN_DATASETS, value)) return { train: await BUILTIN_DATASETS[value](), heldOut: [] };
  return { train: parseTaskFile(await readTextFlag(io, 'tasks', value), value), heldOut: [] };
}

/** Names of the built-in task sets, which bring their own held-out split. */
export const BUILT_IN_TASK_SETS = ['experts', 'experts-short', 'routellm-mmlu'] as const;

export function isBuiltInTaskSet(name: string): name is (typeof BUILT_IN_TASK_SETS)[number] {
  return (BUILT_IN_TASK_SETS as readonly string[]).includes(name);
}

export async function readBuiltInTaskSet(name: (typeof BUILT_IN_TASK_SETS)[number], seed: number): Promise<TaskSplit> {
  if (name === 'routellm-mmlu') return routellmMmluTaskSet(await readMmlu(), await readShippedReplay(), { seed });
  return name === 'experts' ? readExpertsTasks(seed) : shortExpertsTaskSet({ seed });
}

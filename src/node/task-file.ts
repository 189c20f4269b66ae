/**
 * Task sets for training: a JSONL file of tasks {question, answer, kind, choices?, dataset?, itemId?}
 * (core's Task), or one of the experts pool's built-in sets: MMLU and GSM8K questions read from data/
 * ('experts'), or short generated questions of the same two kinds ('experts-short').
 */
import { readdir, readFile } from 'node:fs/promises';
import { loadGsm8k, loadMmluCsv, parseJsonl } from '../core/bench/datasets/index.ts';
import { expertsTaskSet, shortExpertsTaskSet, type TaskSplit } from '../core/providers/simulated/index.ts';
import { TASK_KINDS, type Task, type TaskKind } from '../core/task.ts';
import { CliError } from './io.ts';

const DATA = new URL('../../data/', import.meta.url);

export function parseTaskFile(text: string, source: string): Task[] {
  return parseJsonl(text, source).map((r, i) => {
    const where = `${source}, line ${i + 1}`;
    if (typeof r.question !== 'string' || r.question.trim() === '') throw new CliError(`${where}: "question" must be a non-empty string`);
    if (typeof r.answer !== 'string') throw new CliError(`${where}: "answer" must be a string (the gold answer the reward grades against)`);
    if (!TASK_KINDS.includes(r.kind as TaskKind) || r.kind === 'open' || r.kind === 'code') {
      throw new CliError(`${where}: "kind" must be one of ${TASK_KINDS.filter((k) => k !== 'open' && k !== 'code').join(', ')}, got ${JSON.stringify(r.kind)}`);
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

/** The experts set: every MMLU subject and GSM8K from data/, drawn and split by the seed. */
export async function readExpertsTasks(seed: number): Promise<TaskSplit> {
  const mmlu = new URL('mmlu/test/', DATA);
  const files = (await readdir(mmlu)).filter((f) => f.endsWith('.csv')).sort();
  const mcq = (await Promise.all(files.map(async (f) => loadMmluCsv(await readFile(new URL(f, mmlu), 'utf8'), f.replace(/_test\.csv$/, ''))))).flat();
  const arithmetic = loadGsm8k(await readFile(new URL('gsm8k/test.jsonl', DATA), 'utf8'));
  return expertsTaskSet(mcq, arithmetic, { seed });
}

/** Names of the built-in task sets, which bring their own held-out split. */
export const BUILT_IN_TASK_SETS = ['experts', 'experts-short'] as const;

export function isBuiltInTaskSet(name: string): name is (typeof BUILT_IN_TASK_SETS)[number] {
  return (BUILT_IN_TASK_SETS as readonly string[]).includes(name);
}

export async function readBuiltInTaskSet(name: (typeof BUILT_IN_TASK_SETS)[number], seed: number): Promise<TaskSplit> {
  return name === 'experts' ? readExpertsTasks(seed) : shortExpertsTaskSet({ seed });
}

/**
 * Pools of real models replaying their recorded answers (recorded-set.ts), at their recorded tokens and list
 * prices: the training and measuring ground of a cost-aware Conductor (docs/pools.md). A pool is every model of a
 * source, or a named handful spanning its prices; the workers' prices and labels come from the source's
 * models.json. Test: test/unit/core/providers/replay/recorded-pools.test.ts.
 */
import { BatonError } from '../../errors/index.ts';
import type { WorkerSpec } from '../types.ts';
import { recordedColumn, type RecordedModel, type RecordedQuestion, type RecordedSource } from './recorded-set.ts';

interface RecordedPoolPreset {
  source: RecordedSource;
  /** Model ids of models.json, in pool order; absent: every model recorded on every question of the source. */
  models?: readonly string[];
  /** In words, for --help. */
  about: string;
}

export const RECORDED_POOLS = {
  zeroeval: { source: 'zeroeval', about: 'the 27 models ZeroEval recorded on all of GSM8K, MATH level 5 and CRUXEval, at list prices' },
  'zeroeval-4': {
    source: 'zeroeval',
    models: ['gpt-4o-2024-05-13', 'gpt-4o-mini-2024-07-18', 'deepseek-v2.5-0908', 'gemma-2-9b-it'],
    about: "ZeroEval's gpt-4o, gpt-4o-mini, deepseek-v2.5 and gemma-2-9b: four prices, 1x to about 1/50",
  },
  routerbench: { source: 'routerbench', about: "RouterBench's 11 models (ARC, MBPP, Winogrande) at their recorded dollars" },
  'routerbench-4': {
    source: 'routerbench',
    models: ['gpt-4-1106-preview', 'gpt-3.5-turbo-1106', 'zero-one-ai/Yi-34B-Chat', 'mistralai/mistral-7b-chat'],
    about: "RouterBench's GPT-4, GPT-3.5, Yi-34B and Mistral-7B: four prices, 1x to about 1/150",
  },
} as const satisfies Record<string, RecordedPoolPreset>;

export type RecordedPoolName = keyof typeof RECORDED_POOLS;

export const isRecordedPool = (name: string): name is RecordedPoolName => Object.hasOwn(RECORDED_POOLS, name);

/** A worker id a person can type in single:<id>: the model id's last part, lower case. */
const workerId = (modelId: string) =>
  modelId
    .split('/')
    .pop()!
    .toLowerCase()
    .replace(/[^a-z0-9.]+/g, '-');

/** The ids of the models (in models.json's order) with a record on every question: a pool of all of them replays every question. */
export function completeModels(models: readonly RecordedModel[], questions: readonly RecordedQuestion[]): string[] {
  return models.filter((m) => questions.every((q) => q.records[m.id] !== undefined)).map((m) => m.id);
}

/** The pool's workers, from its source's models.json and questions. */
export function recordedPool(name: RecordedPoolName, models: readonly RecordedModel[], questions: readonly RecordedQuestion[]): WorkerSpec[] {
  const preset: RecordedPoolPreset = RECORDED_POOLS[name];
  const byId = new Map(models.map((m) => [m.id, m]));
  const missing = (preset.models ?? []).filter((id) => !byId.has(id));
  if (missing.length) {
    throw new BatonError({
      code: 'data/invalid',
      message: `Pool ${name} names ${missing.join(', ')}, which data/${preset.source}/models.json does not have (it has ${models.map((m) => m.id).join(', ')}).`,
    });
  }
  return (preset.models ?? completeModels(models, questions)).map((id) => {
    const m = byId.get(id)!;
    return {
      id: workerId(id),
      provider: 'replay',
      model: recordedColumn(preset.source, id),
      label: `${m.label} (recorded)`,
      ...(m.price ? { price: m.price } : {}),
    };
  });
}

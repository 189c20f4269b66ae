/**
 * Recorded answers of many real models on the same questions, as data/<source>/ holds them (data/README.md:
 * ZeroEval's and RouterBench's records): one JSON object a question with each model's answer-bearing text,
 * its grade, its tokens and its dollars, and models.json with each model's list price. Read into replay
 * tables whose columns are `<source>/<model id>`, so one table can hold several sources and a worker's
 * `model` says which source it replays. Test: test/unit/core/providers/replay/recorded-set.test.ts.
 */
import { BatonError } from '../../errors/index.ts';
import { parseJsonl } from '../../formats/index.ts';
import { TASK_KINDS, type TaskKind } from '../../task.ts';
import type { Price } from '../types.ts';
import type { ReplayRecord, ReplayTable } from './replay-table.ts';
import { normalizeQuestion } from './replay-table.ts';

/** The sources whose records Baton ships in this shape, each in data/<source>/. */
export const RECORDED_SOURCES = ['zeroeval', 'routerbench'] as const;
export type RecordedSource = (typeof RECORDED_SOURCES)[number];

export interface RecordedAnswer {
  text: string;
  correct: boolean;
  /** Set where Baton cannot grade the text (e.g. MBPP without its tests): `correct` is the source's. */
  gradedBy?: 'source';
  inputTokens: number;
  outputTokens: number;
  usd: number;
}

export interface RecordedQuestion {
  id: string;
  kind: TaskKind;
  question: string;
  answer: string;
  choices?: string[];
  /** The source's own split, where it has one. */
  split?: 'train' | 'test';
  /** By model id (models.json's). */
  records: Record<string, RecordedAnswer>;
}

/** A recorded source's models and its questions by set (its files' names: 'gsm', 'arc-challenge'): what its pools, task set and replay table are made of. */
export interface RecordedSourceData {
  models: RecordedModel[];
  sets: { set: string; questions: RecordedQuestion[] }[];
}

export interface RecordedModel {
  id: string;
  model: string;
  label: string;
  /** Dollars per million tokens; null where the source records dollars per call only. */
  price: Price | null;
  priceSource: string;
  tokens: string;
}

/**
 * A question whose records only the source could grade (MBPP without its tests): its task's gold is this
 * verdict, and a replayed record ends with the source's verdict in answer tags, so grading the replayed
 * answer gives the recorded correctness, as RouteLLM's correctness-only MMLU records are replayed.
 */
export const SOURCE_VERDICT = { right: 'passed', wrong: 'failed' } as const;

export const isSourceGraded = (q: RecordedQuestion) => Object.values(q.records).some((r) => r.gradedBy === 'source');

const replayedText = (q: RecordedQuestion, r: RecordedAnswer) =>
  isSourceGraded(q)
    ? `${r.text}\n\n(Replayed record: the source graded this answer, and only its verdict is replayed.)\n<answer>${r.correct ? SOURCE_VERDICT.right : SOURCE_VERDICT.wrong}</answer>`
    : r.text;

/** The replay column of a source's model: what a replay worker's `model` names. */
export const recordedColumn = (source: RecordedSource, modelId: string) => `${source}/${modelId}`;

/** The source a replay worker's model reads, or undefined for RouteLLM's columns. */
export const recordedSourceOf = (model: string): RecordedSource | undefined => RECORDED_SOURCES.find((s) => model.startsWith(`${s}/`));

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
const isCount = (v: unknown): v is number => typeof v === 'number' && Number.isFinite(v) && v >= 0;

/** One set's file (data/<source>/<set>.jsonl), checked line by line. */
export function parseRecordedSet(text: string, source: string): RecordedQuestion[] {
  return parseJsonl(text, source).map((row, i) => {
    const bad = (why: string) => new BatonError({ code: 'data/invalid', message: `${source}, line ${i + 1}: ${why}` });
    const { id, kind, question, answer, choices, split, records } = row as Record<string, unknown>;
    if (typeof id !== 'string' || id === '') throw bad('"id" must be a non-empty string');
    if (!TASK_KINDS.includes(kind as TaskKind)) throw bad(`"kind" must be one of ${TASK_KINDS.join(', ')}, got ${JSON.stringify(kind)}`);
    if (typeof question !== 'string' || typeof answer !== 'string') throw bad('"question" and "answer" must be strings');
    if (choices !== undefined && !(Array.isArray(choices) && choices.every((c) => typeof c === 'string'))) throw bad('"choices" must be a list of strings');
    if (split !== undefined && split !== 'train' && split !== 'test') throw bad(`"split" must be "train" or "test", got ${JSON.stringify(split)}`);
    if (!isObject(records)) throw bad('"records" must be an object of model id to record');
    for (const [model, r] of Object.entries(records)) {
      if (!isObject(r) || typeof r.text !== 'string' || typeof r.correct !== 'boolean' || ![r.inputTokens, r.outputTokens, r.usd].every(isCount)) {
        throw bad(`the record of ${model} needs text, correct, inputTokens, outputTokens and usd`);
      }
    }
    return {
      id,
      kind: kind as TaskKind,
      question,
      answer,
      ...(choices ? { choices: choices as string[] } : {}),
      ...(split ? { split: split as 'train' | 'test' } : {}),
      records: records as Record<string, RecordedAnswer>,
    };
  });
}

/** A source's models.json. */
export function parseRecordedModels(text: string, source: string): RecordedModel[] {
  const bad = (why: string) => new BatonError({ code: 'data/invalid', message: `${source}: ${why}` });
  let list: unknown;
  try {
    list = JSON.parse(text);
  } catch (e) {
    throw bad(`not JSON (${(e as Error).message})`);
  }
  if (!Array.isArray(list)) throw bad('must be a list of models');
  return list.map((m: unknown, i) => {
    if (!isObject(m) || typeof m.id !== 'string' || typeof m.label !== 'string') throw bad(`model ${i + 1} needs an "id" and a "label"`);
    const price = m.price;
    if (price !== null && !(isObject(price) && isCount(price.input) && isCount(price.output))) {
      throw bad(`model ${m.id}: "price" must be {input, output} in dollars per million tokens, or null`);
    }
    return {
      id: m.id,
      model: typeof m.model === 'string' ? m.model : m.id,
      label: m.label,
      price: price === null ? null : { input: price.input as number, output: price.output as number },
      priceSource: typeof m.priceSource === 'string' ? m.priceSource : '',
      tokens: typeof m.tokens === 'string' ? m.tokens : '',
    };
  });
}

/**
 * The replay table of a source's questions: each record's text, grade and tokens under `<source>/<model id>`,
 * and its recorded dollars where the source priced calls itself (`usdRecorded`: models.json gives no price).
 */
export function recordedReplayTable(source: RecordedSource, questions: readonly RecordedQuestion[], usdRecorded: ReadonlySet<string> = new Set()): ReplayTable {
  const models = new Set<string>();
  const entries = new Map<string, Record<string, ReplayRecord>>();
  for (const q of questions) {
    const row: Record<string, ReplayRecord> = {};
    for (const [id, r] of Object.entries(q.records)) {
      const column = recordedColumn(source, id);
      models.add(column);
      const usage = { input: r.inputTokens, output: r.outputTokens, ...(usdRecorded.has(id) ? { costUsd: r.usd } : {}) };
      row[column] = { correct: r.correct, response: replayedText(q, r), usage };
    }
    entries.set(normalizeQuestion(q.question), { ...entries.get(normalizeQuestion(q.question)), ...row });
  }
  return { models: [...models], entries };
}

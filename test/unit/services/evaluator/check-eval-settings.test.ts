/** The Evaluate page's settings as the worker checks them, and the data's short name lists show. */
import { expect, it } from 'vitest';
import { DEMO_POOL } from '../../../../src/core/providers/index.ts';
import { checkEvalSettings, dataLabel, formatOfFile, type EvalSettings } from '../../../../src/services/evaluator/index.ts';

const ok: EvalSettings = {
  data: { from: 'builtin', name: 'mmlu', subjects: ['anatomy'] },
  offset: 0,
  limit: 4,
  methods: ['single:sim-euler', 'oracle'],
  repeats: 1,
  concurrency: 2,
  seed: 0,
  maxSteps: 3,
  pool: [...DEMO_POOL],
};

it('accepts good settings and names the field of a bad one', () => {
  expect(checkEvalSettings(ok)).toBe(ok);
  expect(() => checkEvalSettings({ ...ok, pool: [] })).toThrow(/no workers/);
  expect(() => checkEvalSettings({ ...ok, methods: [] })).toThrow(/at least one method/);
  expect(() => checkEvalSettings({ ...ok, methods: ['oracle', 'oracle'] })).toThrow(/twice/);
  expect(() => checkEvalSettings({ ...ok, methods: ['best-guess'] })).toThrow(/best-guess/);
  expect(() => checkEvalSettings({ ...ok, repeats: 0 })).toThrow(/^Repeats must be a whole number from 1 to 20/);
  expect(() => checkEvalSettings({ ...ok, concurrency: 1.5 })).toThrow(/^Concurrency/);
  expect(() => checkEvalSettings({ ...ok, budgetUsd: -1 })).toThrow(/^Budget/);
  expect(() => checkEvalSettings({ ...ok, data: { from: 'builtin', name: 'gsm8k', subjects: ['anatomy'] } })).toThrow(/MMLU only/);
  expect(() => checkEvalSettings({ ...ok, data: { from: 'file', name: 'x.jsonl', format: 'jsonl', map: 'question', skipBad: false } })).toThrow(/field=column/);
  expect(() => checkEvalSettings({ ...ok, data: { from: 'hub', dataset: 'a b', map: '', skipBad: false } })).toThrow(/hf:owner\/name/);
});

it('names the data with its window, and a file format by its name', () => {
  expect(dataLabel(ok)).toBe('mmlu (anatomy) [0–4)');
  expect(dataLabel({ data: { from: 'file', name: 'mine.csv', format: 'csv', map: '', skipBad: true }, offset: 0 })).toBe('mine.csv');
  expect(dataLabel({ data: { from: 'hub', dataset: 'o/n', map: '', skipBad: true }, offset: 10 })).toBe('hf:o/n [10–end)');
  expect([formatOfFile('a.JSONL'), formatOfFile('b.csv'), formatOfFile('c.parquet'), formatOfFile('d.txt')]).toEqual(['jsonl', 'csv', 'parquet', undefined]);
});

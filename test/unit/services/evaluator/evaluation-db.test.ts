/** The evaluations' IndexedDB (fake-indexeddb): listed newest first; calls kept per evaluation and read back without the prefix; a delete takes only its own. */
import 'fake-indexeddb/auto';
import { IDBFactory } from 'fake-indexeddb';
import { expect, it } from 'vitest';
import { DEMO_POOL } from '../../../../src/core/providers/index.ts';
import { EvaluationDb, type StoredEvaluation } from '../../../../src/services/evaluator/index.ts';

const evaluation = (id: string, createdAt: string): StoredEvaluation => ({
  id,
  settings: {
    data: { from: 'builtin', name: 'gsm8k' },
    offset: 0,
    methods: ['random'],
    repeats: 1,
    concurrency: 1,
    seed: 0,
    maxSteps: 3,
    pool: [...DEMO_POOL],
  },
  status: 'done',
  createdAt,
  updatedAt: createdAt,
  items: 1,
  bad: [],
  badUnit: 'line',
  total: 1,
  done: 1,
});
const result = (text: string) => ({ text, usage: { input: 1, output: 1 }, costUsd: 0, latencyMs: 1, model: 'm', finishReason: 'stop' as const, attempts: 1 });

it('lists newest first and keeps each evaluation its items and calls, deleting only its own', async () => {
  const db = await EvaluationDb.open(new IDBFactory());
  await db.create(evaluation('a', '2026-01-01T00:00:00.000Z'), [{ question: 'q', answer: '1', kind: 'number', itemId: 'x' }]);
  await db.create(evaluation('ab', '2026-01-02T00:00:00.000Z'), []);
  expect((await db.list()).map((e) => e.id)).toEqual(['ab', 'a']);
  await db.putCall('a', { key: 'run|req|0', result: result('one') });
  await db.putCall('ab', { key: 'run|req|0', result: result('two') });
  expect(await db.calls('a')).toEqual([{ key: 'run|req|0', result: result('one') }]);
  expect((await db.items('a')).map((t) => t.itemId)).toEqual(['x']);

  await db.delete('a');
  expect((await db.list()).map((e) => e.id)).toEqual(['ab']);
  expect(await db.calls('a')).toEqual([]);
  expect(await db.calls('ab')).toEqual([{ key: 'run|req|0', result: result('two') }]);
  await expect(db.items('a')).rejects.toThrow(/not stored/);
});

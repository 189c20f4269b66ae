import 'fake-indexeddb/auto';
import { IDBFactory } from 'fake-indexeddb';
import { describe, expect, it } from 'vitest';
import { loraState, type GrpoCheckpoint } from '../../../../src/core/rl/index.ts';
import { openKeyedDb } from '../../../../src/core/storage/index.ts';
import { DEFAULT_TRAINING, TRAINING_DB, TrainingDb, type StoredChoices, type StoredRun } from '../../../../src/services/trainer/index.ts';
import { EXPERTS_POOL } from '../../../../src/core/providers/simulated/index.ts';

const run = (runId: string, status: StoredRun['status'] = 'running'): StoredRun => ({
  runId,
  config: { ...DEFAULT_TRAINING, pool: [...EXPERTS_POOL] },
  status,
  startedAt: '2026-12-01T00:00:00.000Z',
});

const checkpoint = (step: number): GrpoCheckpoint => ({
  step,
  seed: 0,
  state: { adapterConfig: `{"r":${step}}`, adapter: Uint8Array.of(step, 1, 2), optimizer: Uint8Array.of(9, step) },
  metrics: [],
});

describe('TrainingDb', () => {
  it('keeps the run and its newest checkpoint across connections', async () => {
    const factory = new IDBFactory();
    const db = await TrainingDb.open(factory);
    expect(await db.run()).toBeUndefined();
    await db.putRun(run('a'));
    const store = db.checkpoints('a');
    await store.save(checkpoint(1));
    await store.save(checkpoint(2));
    db.close();

    const again = await TrainingDb.open(factory);
    expect(await again.run()).toEqual(run('a'));
    const latest = await again.latestCheckpoint('a');
    expect(latest?.step).toBe(2);
    expect(loraState(latest!.state).adapterConfig).toBe('{"r":2}');
    expect([...loraState(latest!.state).adapter]).toEqual([2, 1, 2]);
    expect([...latest!.state.optimizer]).toEqual([9, 2]);
    again.close();
  });

  it('drops the previous run’s checkpoint when a new run starts, not when the same run changes state', async () => {
    const db = await TrainingDb.open(new IDBFactory());
    await db.putRun(run('a'));
    await db.checkpoints('a').save(checkpoint(3));
    await db.putRun(run('a', 'paused'));
    expect((await db.latestCheckpoint('a'))?.step).toBe(3);
    expect((await db.run())?.status).toBe('paused');
    await db.putRun(run('b'));
    expect(await db.latestCheckpoint('a')).toBeUndefined();
    expect((await db.run())?.runId).toBe('b');
    db.close();
  });

  it('keeps what was trained on the choices; a database from before that store opens with its run kept', async () => {
    const factory = new IDBFactory();
    const v1 = await openKeyedDb(factory, TRAINING_DB, 1, { runs: 'id', checkpoints: 'runId' });
    await v1.put('runs', { ...run('a', 'done'), id: 'current' });
    v1.close();

    const db = await TrainingDb.open(factory);
    expect(await db.run()).toEqual(run('a', 'done'));
    expect(await db.choices()).toBeUndefined();
    const choices: StoredChoices = {
      adapter: { name: 'choices-1', adapterConfig: '{"r":8}', adapter: Uint8Array.of(4, 5), format: { prompt: 'compact', constrain: true, maxSteps: 1 } },
      model: { from: 'demo' },
      summary: { picks: { train: 3, heldOut: 1 }, ratedPrompts: 0, before: { agreed: 0, total: 1 }, after: { agreed: 1, total: 1 } },
    };
    await db.putChoices(choices);
    db.close();
    const again = await TrainingDb.open(factory);
    expect(await again.choices()).toEqual(choices);
    again.close();
  });
});

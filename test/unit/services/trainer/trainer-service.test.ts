import 'fake-indexeddb/auto';
import { IDBFactory, IDBKeyRange } from 'fake-indexeddb';
import { describe, expect, it } from 'vitest';
import { IdbEpisodeStore } from '../../../../src/core/episodes/index.ts';
import { createSimulatedWorker, EXPERTS_POOL } from '../../../../src/core/providers/simulated/index.ts';
import { hashString } from '../../../../src/core/random.ts';
import { loraState, type GrpoBatch, type TrainablePolicy, type TrainingState, type TrainStepResult } from '../../../../src/core/rl/index.ts';
import type { Task } from '../../../../src/core/task.ts';
import type { TrainedAdapter } from '../../../../src/services/runtimes/index.ts';
import {
  DEFAULT_TRAINING,
  TrainerService,
  TrainingDb,
  type ChoiceTrainingProgress,
  type PrepareTraining,
  type TrainerDeps,
  type TrainingConfig,
  type TrainingProgress,
} from '../../../../src/services/trainer/index.ts';
import { ScriptedPolicy } from '../../core/rl/scripted-policy.ts';

/** A policy whose "weights" are its update count: plans depend on them, and the state is that count. */
class CountingTrainable implements TrainablePolicy {
  updates = 0;
  /** Updates this instance took itself (not imported from a checkpoint). */
  taken = 0;
  readonly sampler = new ScriptedPolicy((seed, i) => hashString(`${seed} ${i} ${this.updates}`) % 4);
  promptIds = this.sampler.promptIds.bind(this.sampler);
  generateGroup = this.sampler.generateGroup.bind(this.sampler);
  logprobs = this.sampler.logprobs.bind(this.sampler);
  async trainStep(_batch: GrpoBatch): Promise<TrainStepResult> {
    this.updates++;
    this.taken++;
    const clipRatio = { lowMean: 0, highMean: 0, regionMean: 0, lowMin: 0, highMax: 0 };
    return { loss: 0.1, gradNorm: 1, clipRatio, entropy: 1, tokens: 3, lr: 1e-3, step: this.updates, timeMs: 1 };
  }
  async exportState(): Promise<TrainingState> {
    return { adapterConfig: `{"updates":${this.updates}}`, adapter: Uint8Array.of(this.updates), optimizer: Uint8Array.of(0) };
  }
  async importState(state: TrainingState): Promise<void> {
    this.updates = loraState(state).adapter[0];
  }
}

const tasks: Task[] = Array.from({ length: 8 }, (_, i) => ({ question: `What is ${i} + ${i}?`, answer: String(2 * i), kind: 'number', itemId: String(i) }));
const config: TrainingConfig = { ...DEFAULT_TRAINING, pool: [...EXPERTS_POOL], steps: 4, questions: 2, group: 2, evalEvery: 0 };

interface Harness {
  deps: TrainerDeps;
  adapters: TrainedAdapter[];
  episodes: () => Promise<IdbEpisodeStore>;
  policies: CountingTrainable[];
}

function harness(factory = new IDBFactory(), prepare?: PrepareTraining): Harness {
  const adapters: TrainedAdapter[] = [];
  const policies: CountingTrainable[] = [];
  const episodes = () => IdbEpisodeStore.open({ indexedDB: factory, IDBKeyRange });
  const deps: TrainerDeps = {
    db: () => TrainingDb.open(factory),
    prepare:
      prepare ??
      (async (c) => {
        const policy = new CountingTrainable();
        policies.push(policy);
        return { policy, pool: c.pool.map((s) => createSimulatedWorker(s)), tasks: { train: tasks, heldOut: [] }, conductorModel: 'scripted', close: () => {} };
      }),
    estimate: async () => {
      throw new Error('not used');
    },
    episodes,
    saveAdapter: async (a) => void adapters.push(a),
    learnChoices: async () => {
      throw new Error('not used');
    },
  };
  return { deps, adapters, episodes, policies };
}

/** Resolves with the first progress that `until` accepts. */
function when(service: TrainerService, until: (p: TrainingProgress) => boolean): Promise<TrainingProgress> {
  return new Promise((resolve) => void service.watch((p) => until(p) && resolve(p)));
}

describe('TrainerService', () => {
  it('runs every step, checkpoints, stores each rollout as a tagged episode, and hands the adapter to the Conductor', async () => {
    const h = harness();
    const service = new TrainerService(h.deps);
    const done = when(service, (p) => p.status === 'done');
    await service.start(config);
    const end = await done;
    expect(end.metrics.map((m) => m.step)).toEqual([1, 2, 3, 4]);
    expect(end.hasAdapter).toBe(true);
    expect(end.latestGroup?.plans).toHaveLength(2);
    const stored = await (await h.episodes()).list({ limit: 100 });
    expect(stored.episodes).toHaveLength(4 * 2 * 2);
    expect(stored.episodes.every((e) => e.tags.includes('train-page') && e.tags.includes('train') && e.group?.startsWith('grpo-0/step-'))).toBe(true);

    const exported = await service.exportAdapter();
    expect(exported).toMatchObject({ step: 4, adapterConfig: '{"updates":4}' });
    const choice = await service.useAsConductor();
    expect(choice).toMatchObject({ source: { from: 'demo' }, weights: 'f32', adapter: { from: 'trained' } });
    expect(h.adapters).toHaveLength(1);
    // Kept with the format it was trained in, which the Conductor that loads it runs in.
    expect(h.adapters[0].format).toEqual({ prompt: 'compact', constrain: true, maxSteps: config.maxSteps, fixedSubtasks: true, jumpForward: true });
    expect(choice.adapter).toEqual({ from: 'trained', name: h.adapters[0].name });
    expect([...h.adapters[0].adapter]).toEqual([4]);
  });

  it('pauses after a finished step, restores the paused run in a new service (a reload), and resumes from its checkpoint', async () => {
    const factory = new IDBFactory();
    const first = harness(factory);
    const service = new TrainerService(first.deps);
    const afterOne = when(service, (p) => p.metrics.length >= 1);
    await service.start(config);
    await afterOne;
    await service.pause();
    const paused = await service.progress();
    expect(paused.status).toBe('paused');
    const pausedAt = paused.metrics.length;
    expect(pausedAt).toBeGreaterThanOrEqual(1);
    expect(pausedAt).toBeLessThan(4);

    const reloaded = harness(factory);
    const again = new TrainerService(reloaded.deps);
    const restored = await again.progress();
    expect(restored).toMatchObject({ status: 'paused', runId: paused.runId, hasAdapter: true });
    expect(restored.metrics.map((m) => m.step)).toEqual(paused.metrics.map((m) => m.step));

    const reported: number[] = [];
    void again.watch((p) => p.status === 'running' && p.metrics.length > 0 && reported.push(p.metrics.at(-1)!.step));
    const done = when(again, (p) => p.status === 'done');
    await again.resume();
    const end = await done;
    expect(end.metrics.map((m) => m.step)).toEqual([1, 2, 3, 4]);
    // The resumed run took only the steps after the checkpoint, from the checkpoint's weights.
    expect(reloaded.policies[0].taken).toBe(4 - pausedAt);
    expect(reloaded.policies[0].updates).toBe(4);
    expect(new Set(reported)).toEqual(new Set(Array.from({ length: 4 - pausedAt + 1 }, (_, i) => pausedAt + i)));
    await expect(again.resume()).rejects.toMatchObject({ code: 'run/config' });
  });

  it('finds a run whose tab closed mid-step paused at its last checkpoint, ready to resume', async () => {
    const factory = new IDBFactory();
    const db = await TrainingDb.open(factory);
    await db.putRun({ runId: 'r1', config, status: 'running', startedAt: '2026-12-01T00:00:00Z' });
    const state = await new CountingTrainable().exportState();
    await db.checkpoints('r1').save({ step: 2, seed: 0, state: { ...state, adapter: Uint8Array.of(2) }, metrics: [] });
    db.close();
    const h = harness(factory);
    const service = new TrainerService(h.deps);
    expect(await service.progress()).toMatchObject({ status: 'paused', runId: 'r1', hasAdapter: true });
    const done = when(service, (p) => p.status === 'done');
    await service.resume();
    await done;
    expect(h.policies[0].taken).toBe(2);
  });

  it('refuses a second start while running, and a stop ends a paused run for good', async () => {
    const h = harness();
    const service = new TrainerService(h.deps);
    const afterOne = when(service, (p) => p.metrics.length >= 1);
    await service.start(config);
    await expect(service.start(config)).rejects.toMatchObject({ code: 'run/config' });
    await afterOne;
    await service.pause();
    await service.stop();
    expect((await service.progress()).status).toBe('stopped');
    await expect(service.resume()).rejects.toMatchObject({ code: 'run/config' });
    expect((await service.exportAdapter()).step).toBeGreaterThanOrEqual(1);
  });

  it('reports a failure as one message and keeps the run resumable', async () => {
    const factory = new IDBFactory();
    let fail = true;
    const h = harness(factory, async (c) => {
      if (fail) throw Object.assign(new Error('GPU out of memory'), { name: 'GPUOutOfMemoryError' });
      return {
        policy: new CountingTrainable(),
        pool: c.pool.map((s) => createSimulatedWorker(s)),
        tasks: { train: tasks, heldOut: [] },
        conductorModel: 'scripted',
        close: () => {},
      };
    });
    const service = new TrainerService(h.deps);
    const failed = when(service, (p) => p.status === 'failed');
    await service.start(config);
    expect((await failed).error?.message).toContain('GPU out of memory');
    expect((await new TrainerService(harness(factory).deps).progress()).status).toBe('failed');
    fail = false;
    const done = when(service, (p) => p.status === 'done');
    await service.resume();
    expect((await done).metrics).toHaveLength(4);
  });

  it('a pause while the model loads cuts the load and leaves the run paused at its start', async () => {
    const h = harness(new IDBFactory(), (_c, _keys, onPhase, signal) => {
      onPhase('Downloading the model');
      return new Promise((_, reject) => signal?.addEventListener('abort', () => reject(new Error('load cut'))));
    });
    const service = new TrainerService(h.deps);
    const loading = when(service, (p) => p.phase === 'Downloading the model');
    await service.start(config);
    await loading;
    await service.pause();
    expect(await service.progress()).toMatchObject({ status: 'paused', metrics: [], hasAdapter: false });
    expect((await service.progress()).error).toBeUndefined();
  });

  it('runs recursion rounds when the settings ask for them', async () => {
    const h = harness();
    const service = new TrainerService(h.deps);
    const done = when(service, (p) => p.status === 'done');
    await service.start({ ...config, steps: 1, recursionDepth: 1 });
    await done;
    const stored = await (await h.episodes()).list({ limit: 100 });
    expect(stored.episodes).toHaveLength(2 * 2);
    // Each plan that parsed had a second round, written by the policy after seeing the first's result.
    const parsed = stored.episodes.filter((e) => e.workflow);
    expect(parsed.length).toBeGreaterThan(0);
    for (const e of parsed) expect(e.rounds[0].prompt.some((m) => m.content.includes('Your workflow has run'))).toBe(true);
  });

  it('keeps what it trained on the choices, with its held-out check, so that a reload still offers it to use', async () => {
    const factory = new IDBFactory();
    const summary = { picks: { train: 3, heldOut: 1 }, ratedPrompts: 0, before: { agreed: 0, total: 1 }, after: { agreed: 1, total: 1 } };
    const format = { prompt: 'compact', constrain: true, maxSteps: 1, fixedSubtasks: true } as const;
    const learning =
      (adapter: number): TrainerDeps['learnChoices'] =>
      async () => ({
        result: { ...summary, metrics: [], state: { adapterConfig: '{"r":8}', adapter: Uint8Array.of(adapter), optimizer: Uint8Array.of(0) } },
        format,
      });
    const first = new TrainerService({ ...harness(factory).deps, learnChoices: learning(7) });
    expect(await first.latestChoices()).toBeUndefined();
    await expect(first.useChoicesAsConductor()).rejects.toMatchObject({ code: 'data/not-found' });
    const heard: ChoiceTrainingProgress[] = [];
    await first.trainOnChoices({ from: 'demo' }, (p) => heard.push(p));
    expect(heard.at(-1)).toEqual({ status: 'done', result: summary });

    // A reload: a new service on the same storage, which trained nothing itself.
    const reloaded = harness(factory);
    const again = new TrainerService(reloaded.deps);
    expect(await again.latestChoices()).toEqual({ status: 'done', result: summary });
    const choice = await again.useChoicesAsConductor();
    expect(reloaded.adapters).toHaveLength(1);
    expect(reloaded.adapters[0]).toMatchObject({ adapterConfig: '{"r":8}', format });
    expect([...reloaded.adapters[0].adapter]).toEqual([7]);
    expect(choice).toEqual({ source: { from: 'demo' }, weights: 'f32', adapter: { from: 'trained', name: reloaded.adapters[0].name } });

    // Training again replaces it.
    const later = harness(factory);
    await new TrainerService({ ...later.deps, learnChoices: learning(9) }).trainOnChoices({ from: 'demo' }, () => {});
    await new TrainerService(later.deps).useChoicesAsConductor();
    expect([...later.adapters[0].adapter]).toEqual([9]);
  });

  it('checks the settings before anything is stored', async () => {
    const service = new TrainerService(harness().deps);
    await expect(service.start({ ...config, group: 1 })).rejects.toMatchObject({ code: 'run/config', message: expect.stringContaining('"group"') });
    await expect(service.start({ ...config, recursionDepth: 4 })).rejects.toMatchObject({
      code: 'run/config',
      message: expect.stringContaining('"recursionDepth" must be a whole number from 0 to 3'),
    });
    await expect(service.start({ ...config, concurrency: { simulated: 0 } })).rejects.toMatchObject({
      code: 'run/config',
      message: expect.stringContaining('concurrency of simulated'),
    });
    for (const without of [{ fixedSubtasks: false }, { maxSteps: 2 }, { recursionDepth: 1 }]) {
      await expect(service.start({ ...config, fixedSubtasks: true, maxSteps: 1, everyPlan: true, ...without })).rejects.toMatchObject({
        code: 'run/config',
        message: expect.stringContaining('Every plan needs fixed subtask texts, 1 step per workflow and no recursion'),
      });
    }
    expect((await service.progress()).status).toBe('idle');
  });
});

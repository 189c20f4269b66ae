/**
 * The Evaluate page's service in-thread, on fake-indexeddb, with the demo pool's simulated workers (fast)
 * and core/bench's real runner: an evaluation's episodes land in the episode store tagged with it and its
 * report is what they give; a Stop keeps what was done and a resume finishes without a call made twice;
 * a tab that went away leaves its evaluation stopped, not running; the user's rows that are not items
 * are reported by line and stop the start unless left out.
 */
import 'fake-indexeddb/auto';
import { IDBFactory, IDBKeyRange } from 'fake-indexeddb';
import { describe, expect, it } from 'vitest';
import { startFakeDatasetsServer } from '../../../support/fake-datasets-server.ts';
import { buildReport, itemAccuracy, runKeyOf, type MethodReport } from '../../../../src/core/bench/index.ts';
import { IdbEpisodeStore, type Episode } from '../../../../src/core/episodes/index.ts';
import { renderWorkflow } from '../../../../src/core/workflow/index.ts';
import type { CallRequest, WorkerSpec } from '../../../../src/core/providers/index.ts';
import { createSimulatedWorker, DEMO_POOL } from '../../../../src/core/providers/simulated/index.ts';
import {
  EvaluationDb,
  EvaluatorService,
  type EvalSettings,
  type EvaluationProgress,
  type EvaluatorDeps,
  type StoredEvaluation,
} from '../../../../src/services/evaluator/index.ts';

const POOL: WorkerSpec[] = DEMO_POOL.map((w) => ({ ...w, simulated: { ...w.simulated!, latencyMs: 15 } }));

/** `afterCall(n)` runs as the n-th worker call returns (counting calls that returned). */
function harness(factory = new IDBFactory(), afterCall?: (n: number) => void, hubBaseUrl?: string) {
  let calls = 0;
  const episodes = IdbEpisodeStore.open({ indexedDB: factory, IDBKeyRange });
  const deps: EvaluatorDeps = {
    db: () => EvaluationDb.open(factory),
    episodes: () => episodes,
    worker: async (spec) => {
      const worker = createSimulatedWorker(spec);
      return {
        ...worker,
        call: async (req: CallRequest) => {
          const result = await worker.call(req);
          afterCall?.(++calls);
          return result;
        },
      };
    },
    ...(hubBaseUrl ? { hubBaseUrl } : {}),
  };
  return { deps, episodes, factory, calls: () => calls };
}

const settings = (patch: Partial<EvalSettings> = {}): EvalSettings => ({
  data: { from: 'builtin', name: 'gsm8k' },
  offset: 0,
  limit: 4,
  methods: ['single:sim-euler', 'random', 'oracle'],
  repeats: 1,
  concurrency: 2,
  seed: 1,
  maxSteps: 3,
  pool: POOL,
  ...patch,
});

async function allEpisodes(store: Promise<IdbEpisodeStore>, evalId: string): Promise<Episode[]> {
  return (await (await store).list({ filter: { tag: `eval:${evalId}` }, limit: 1000 })).episodes;
}

async function until(service: EvaluatorService, done: (p: EvaluationProgress) => boolean): Promise<EvaluationProgress> {
  return new Promise((resolve) => void service.watch((p) => done(p) && resolve(p)));
}

describe('EvaluatorService', () => {
  it('runs every method on every item, stores the runs as tagged episodes and a report they give', async () => {
    const h = harness();
    const service = new EvaluatorService(h.deps);
    const id = await service.start(settings(), undefined);
    const end = await until(service, (p) => p.status === 'done');
    // single:sim-euler and random asked for, the oracle adds every other worker's single run; 4 items each.
    const methods = ['single:sim-euler', 'random', ...POOL.slice(1).map((w) => `single:${w.id}`)];
    expect(end.total).toBe(methods.length * 4);
    expect(end.done).toBe(methods.length * 4);
    const episodes = await allEpisodes(h.episodes, id);
    expect(episodes).toHaveLength(methods.length * 4);
    const stored = (await service.list()).find((e) => e.id === id)!;
    expect(stored.status).toBe('done');
    expect(stored.report!.methods.map((m) => m.method)).toEqual([...methods, 'oracle']);
    // The stored report is the one the episodes give, and its accuracy is their share right per item.
    const recomputed = buildReport(episodes, { evalId: id, methods, oracle: { singles: POOL.map((w) => `single:${w.id}`) } }).methods;
    const counts = (m: MethodReport) => [m.method, m.runs, m.graded, m.correct, m.accuracy, m.stderr, m.callsPerQuestion];
    expect(stored.report!.methods.map(counts)).toEqual(recomputed.map(counts));
    // Dollars are sums in the order the runs finished: equal up to rounding.
    stored.report!.methods.forEach((m, i) => expect(m.costUsd.total).toBeCloseTo(recomputed[i].costUsd.total, 12));
    const random = new Map<string, boolean[]>();
    for (const e of episodes) if (runKeyOf(e, id)?.method === 'random' && e.reward) random.set(runKeyOf(e, id)!.item, [e.reward.correct]);
    expect(stored.report!.methods[1].accuracy).toBe(itemAccuracy(random).accuracy);
    expect(end.graded).toBe(episodes.filter((e) => e.reward && !e.reward.infraError).length);
  });

  it('keeps what was done at a Stop and finishes on resume without calling a worker twice for one call', async () => {
    // Each run is 4 calls in a row (an answer, 3 reflections): stopping after the 6th cuts the second run halfway.
    const h = harness(new IDBFactory(), (n) => void (n === 6 && service.stop()));
    const service = new EvaluatorService(h.deps);
    const id = await service.start(settings({ limit: 3, concurrency: 1, methods: ['self-reflect:sim-euler,3'] }), undefined);
    await until(service, (p) => p.status === 'stopped');
    const stopped = (await service.get(id))!;
    expect(stopped.status).toBe('stopped');
    expect(stopped.done).toBe(1);
    expect(stopped.report!.methods[0].runs).toBe(1);
    expect(await allEpisodes(h.episodes, id)).toHaveLength(1);
    expect(h.calls()).toBe(6);

    await service.resume(id);
    await until(service, (p) => p.status === 'done');
    expect(await allEpisodes(h.episodes, id)).toHaveLength(3);
    expect((await service.get(id))!.report!.methods[0].runs).toBe(3);
    // 3 runs of 4 calls: the cut run's first 2 calls came from the call log, not from the worker again.
    expect(h.calls()).toBe(12);
    expect((await (await h.deps.db()).calls(id)).length).toBe(12);
  });

  it('finds an evaluation that was running when its tab went away stopped, and resumable', async () => {
    const h = harness();
    const db = await h.deps.db();
    const record: StoredEvaluation = {
      id: 'lost',
      settings: settings(),
      status: 'running',
      createdAt: '2026-01-01T00:00:00.000Z',
      updatedAt: '2026-01-01T00:00:00.000Z',
      items: 1,
      bad: [],
      badUnit: 'line',
      total: 2,
      done: 0,
    };
    await db.create({ ...record, settings: settings({ methods: ['single:sim-euler', 'random'] }) }, [
      { question: 'What is 2 + 2?', answer: '4', kind: 'number', itemId: 'q1' },
    ]);
    const service = new EvaluatorService(h.deps);
    expect((await service.list()).map((e) => [e.id, e.status])).toEqual([['lost', 'stopped']]);
    await service.resume('lost');
    await until(service, (p) => p.status === 'done');
    expect((await allEpisodes(h.episodes, 'lost')).map((e) => e.task.itemId)).toEqual(['q1', 'q1']);
  });

  it('reports rows of the user file that are not items by line, and refuses to start with them unless they are left out', async () => {
    const h = harness();
    const service = new EvaluatorService(h.deps);
    const jsonl = [
      '{"question":"What is 1 + 1?","answer":"2"}',
      '{"question": "broken',
      '{"question":"What is 3 + 3?"}',
      '{"question":"What is 2 + 5?","answer":"7"}',
    ].join('\n');
    const file = new TextEncoder().encode(jsonl).buffer as ArrayBuffer;
    const data = { from: 'file' as const, name: 'mine.jsonl', format: 'jsonl' as const, map: '', skipBad: false };
    const preview = await service.preview({ data, offset: 0 }, file);
    expect(preview.items).toBe(2);
    expect(preview.bad.map((b) => b.line)).toEqual([2, 3]);
    expect(preview.bad[1].reason).toMatch(/no answer/);
    await expect(service.start(settings({ data, limit: undefined }), file)).rejects.toThrow(/line 2: not valid JSON.*line 3: no answer.*Leave bad rows out/);
    expect(await service.list()).toEqual([]);

    const id = await service.start(settings({ data: { ...data, skipBad: true }, limit: undefined, methods: ['single:sim-euler'] }), file);
    await until(service, (p) => p.status === 'done');
    const stored = (await service.get(id))!;
    expect(stored.items).toBe(2);
    expect(stored.bad.map((b) => b.line)).toEqual([2, 3]);
    expect((await allEpisodes(h.episodes, id)).map((e) => e.task.itemId).sort()).toEqual(['1', '4']);
  });

  it('stops at the budget, and finishes when resumed with a larger one', async () => {
    const h = harness();
    const service = new EvaluatorService(h.deps);
    // A demo worker's answer costs about $0.0005: $0.001 pays for about two of the six runs.
    const id = await service.start(settings({ limit: 6, concurrency: 1, methods: ['single:sim-euler'], budgetUsd: 0.001 }), undefined);
    await until(service, (p) => p.status === 'over-budget');
    const spent = (await service.get(id))!;
    expect(spent.status).toBe('over-budget');
    expect(spent.done).toBeLessThan(6);
    expect(spent.report!.methods[0].costUsd.total).toBeLessThanOrEqual(0.001);
    await service.resume(id, {}, undefined, 1);
    await until(service, (p) => p.status === 'done');
    expect((await service.get(id))!.settings.budgetUsd).toBe(1);
    expect(await allEpisodes(h.episodes, id)).toHaveLength(6);
  });

  it('reads a Hugging Face dataset through the datasets server once, then from its stored pages', async () => {
    const rows = Array.from({ length: 5 }, (_, i) => ({ q: `What is ${i} + ${i}?`, a: String(2 * i), uid: `u${i}` }));
    const server = await startFakeDatasetsServer({ 'me/sums': { configs: { default: { test: rows } } } });
    try {
      const h = harness(new IDBFactory(), undefined, server.url);
      const service = new EvaluatorService(h.deps);
      const data = { from: 'hub' as const, dataset: 'me/sums', map: 'question=q,answer=a,id=uid', skipBad: false };
      const preview = await service.preview({ data, offset: 1, limit: 3 });
      expect(preview).toMatchObject({ items: 3, bad: [], first: 'What is 1 + 1?' });
      const asked = server.requests.length;
      const id = await service.start(settings({ data, offset: 1, limit: 3, methods: ['single:sim-euler'] }), undefined);
      await until(service, (p) => p.status === 'done');
      // The start read the same pages from the evaluations' database, not from the server.
      expect(server.requests.length).toBe(asked);
      expect((await allEpisodes(h.episodes, id)).map((e) => e.task.itemId).sort()).toEqual(['u1', 'u2', 'u3']);
      expect((await allEpisodes(h.episodes, id))[0].task.dataset).toBe('me/sums:default:test');
    } finally {
      await server.close();
    }
  });

  it('runs a picked plan file as fixed:<name> and conductor:fixed:<name>, and names a plan that was not picked', async () => {
    const h = harness();
    const service = new EvaluatorService(h.deps);
    // Every question to the last worker alone.
    const plan = renderWorkflow({ steps: [{ worker: POOL.length - 1, subtask: 'Solve it; answer in <answer></answer> tags.', access: [] }] });
    const id = await service.start(settings({ limit: 2, methods: ['fixed:last.txt', 'conductor:fixed:last.txt'], plans: { 'last.txt': plan } }), undefined);
    await until(service, (p) => p.status === 'done');
    const episodes = await allEpisodes(h.episodes, id);
    expect(episodes).toHaveLength(4);
    expect(episodes.every((e) => e.steps.length === 1 && e.steps[0].workerId === POOL.at(-1)!.id)).toBe(true);
    await expect(service.start(settings({ methods: ['fixed:other.txt'], plans: { 'last.txt': plan } }), undefined)).rejects.toThrow(
      /pick the plan file other\.txt/,
    );
  });

  it('leaves out a tab Conductor whose model cannot run here, with its reason, runs the other methods, and tries it again on resume', async () => {
    // Node has no WebGPU, as a browser without it: web-llm's load fails there for real.
    const h = harness();
    const service = new EvaluatorService(h.deps);
    const phases: string[] = [];
    const method = 'conductor:webllm:Qwen2.5-1.5B-Instruct-q4f32_1-MLC';
    const id = await service.start(settings({ methods: [method, 'single:sim-euler'] }), undefined);
    const end = await until(service, (p) => (p.phase && phases.push(p.phase), p.status === 'failed'));
    expect(phases).toContain('Loading Qwen2.5-1.5B-Instruct-q4f32_1-MLC');
    expect(end.error!.code).toBe('engine/no-adapter');
    expect(end.error!.message).toMatch(
      new RegExp(`^${method} cannot run in this tab: This browser offers no WebGPU here.* The other methods ran; Resume tries again\\.$`),
    );
    expect(end.total).toBe(8);
    expect(end.done).toBe(4);
    const episodes = await allEpisodes(h.episodes, id);
    expect(episodes.map((e) => runKeyOf(e, id)!.method)).toEqual(Array(4).fill('single:sim-euler'));
    const stored = (await service.get(id))!;
    expect([stored.status, stored.done, stored.error?.message]).toEqual(['failed', 4, end.error!.message]);
    expect(stored.report!.methods.map((m) => [m.method, m.runs])).toEqual([
      [method, 0],
      ['single:sim-euler', 4],
    ]);

    const calls = h.calls();
    await service.resume(id);
    const again = await until(service, (p) => p.status === 'failed');
    expect([again.done, again.error!.message]).toEqual([4, end.error!.message]);
    expect(h.calls()).toBe(calls);
  });

  it('names an engine model the tab cannot load from (a model directory) when the evaluation starts', async () => {
    const service = new EvaluatorService(harness().deps);
    await expect(service.start(settings({ methods: ['conductor:engine:./models/tiny'] }), undefined)).rejects.toThrow(
      /"\.\/models\/tiny" is neither a Hub repo nor a URL.*a model directory is for baton eval/,
    );
  });
});

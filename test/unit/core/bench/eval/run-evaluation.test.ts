/**
 * The evaluation runner over simulated workers: the report's accuracy and standard errors against a
 * recomputation from the episodes alone, the oracle against every single worker, resume after a Stop
 * without a repeated call, the shared budget and the concurrency limit.
 */
import { describe, expect, it } from 'vitest';
import {
  buildMethods,
  buildReport,
  memoryCallLog,
  runEvaluation,
  runKeyOf,
  type EvaluationInput,
  type LoggedCall,
} from '../../../../../src/core/bench/index.ts';
import type { Episode } from '../../../../../src/core/episodes/index.ts';
import { loadProviders, type CallRequest, type WorkerModel, type WorkerSpec } from '../../../../../src/core/providers/index.ts';
import type { Task } from '../../../../../src/core/task.ts';

const SPECS: WorkerSpec[] = [
  { id: 'strong', provider: 'simulated', model: 's', price: { input: 2, output: 8 }, simulated: { skill: { default: 0.8 }, latencyMs: 0, outputTokens: 40 } },
  {
    id: 'weak',
    provider: 'simulated',
    model: 'w',
    price: { input: 0.1, output: 0.4 },
    simulated: { skill: { default: 0.35 }, latencyMs: 0, outputTokens: 40 },
  },
  { id: 'mid', provider: 'simulated', model: 'm', price: { input: 0.5, output: 2 }, simulated: { skill: { default: 0.55 }, latencyMs: 0, outputTokens: 40 } },
];

const ITEMS: Task[] = Array.from({ length: 24 }, (_, i) => ({
  question: `What is ${i + 3} * ${i + 7}?`,
  answer: String((i + 3) * (i + 7)),
  kind: 'number',
  itemId: `q${i}`,
}));

/** Counts every call each worker finished, by worker and request, and the most calls in flight at once. */
function counted(specs: WorkerSpec[], latencyMs: number, create: (s: WorkerSpec) => WorkerModel) {
  const finished: string[] = [];
  let inFlight = 0;
  let peak = 0;
  const pool = (repeat: number) =>
    specs.map((s) => {
      const inner = create({ ...s, simulated: { ...s.simulated!, latencyMs, seed: 11 + repeat } });
      return {
        spec: inner.spec,
        supportsPrefill: true,
        async call(req: CallRequest) {
          inFlight++;
          peak = Math.max(peak, inFlight);
          try {
            const result = await inner.call(req);
            finished.push(JSON.stringify([repeat, s.id, req.messages]));
            return result;
          } finally {
            inFlight--;
          }
        },
      } satisfies WorkerModel;
    });
  return { pool, finished, peak: () => peak };
}

async function setup(names: string[], latencyMs = 0) {
  const { createWorkerModel } = await loadProviders();
  const calls = counted(SPECS, latencyMs, (s) => createWorkerModel(s));
  const built = await buildMethods(names, {
    workers: SPECS,
    maxSteps: 5,
    naming: 'dir',
    conductorHost: () => {
      throw new Error('not used');
    },
  });
  return { calls, built };
}

const base = (built: Awaited<ReturnType<typeof setup>>['built'], pool: EvaluationInput['pool']): EvaluationInput => ({
  id: 'e1',
  items: ITEMS,
  methods: built.methods,
  repeats: 2,
  concurrency: 4,
  pool,
  seed: 5,
});

/** Accuracy and its standard error as the report's comment defines them, recomputed here from the tags alone. */
function recompute(episodes: Episode[], method: string) {
  const byItem = new Map<string, number[]>();
  for (const e of episodes) {
    const item = e.tags.find((t) => t.startsWith('item:'))!.slice(5);
    if (!e.tags.includes(`method:${method}`) || !e.reward || e.reward.infraError) continue;
    byItem.set(item, [...(byItem.get(item) ?? []), e.reward.correct ? 1 : 0]);
  }
  const means = [...byItem.values()].map((xs) => xs.reduce((a, b) => a + b, 0) / xs.length);
  const n = means.length;
  const m = means.reduce((a, b) => a + b, 0) / n;
  const sd = Math.sqrt(means.reduce((s, x) => s + (x - m) ** 2, 0) / (n - 1));
  return { accuracy: m, stderr: sd / Math.sqrt(n) };
}

describe('runEvaluation', () => {
  it('runs items x methods x repeats, tagged, and the report matches a recomputation from the episodes', async () => {
    const names = ['single:strong', 'single:weak', 'single:mid', 'moa:layers=2,aggregator=strong', 'random', 'round-robin', 'self-reflect:weak,2', 'oracle'];
    const { calls, built } = await setup(names);
    const result = await runEvaluation(base(built, calls.pool));
    const methods = built.methods.map((m) => m.name);
    expect(result.episodes).toHaveLength(ITEMS.length * 2 * methods.length);
    expect(result.remaining).toBe(0);
    const keys = new Set(result.episodes.map((e) => JSON.stringify(runKeyOf(e, 'e1'))));
    expect(keys.size).toBe(result.episodes.length);

    const report = buildReport(result.episodes, { evalId: 'e1', methods, oracle: { singles: ['single:strong', 'single:weak', 'single:mid'] } });
    for (const m of methods) {
      const row = report.methods.find((r) => r.method === m)!;
      const expected = recompute(result.episodes, m);
      expect(row.accuracy, m).toBeCloseTo(expected.accuracy, 12);
      expect(row.stderr, m).toBeCloseTo(expected.stderr, 12);
      expect(row.runs).toBe(ITEMS.length * 2);
    }
    // The simulated skills show through: the strong worker beats the weak one.
    const acc = (m: string) => report.methods.find((r) => r.method === m)!.accuracy;
    expect(acc('single:strong')).toBeGreaterThan(acc('single:weak'));

    // MoA with 3 workers and 2 layers: 3 + 3 + 1 calls, the second layer and the aggregator seeing the layer before.
    const moa = result.episodes.find((e) => e.tags.includes('method:moa:layers=2,aggregator=strong'))!;
    expect(moa.workflow!.steps.map((s) => [s.worker, s.access])).toEqual([
      [0, []],
      [1, []],
      [2, []],
      [0, [0, 1, 2]],
      [1, [0, 1, 2]],
      [2, [0, 1, 2]],
      [0, [3, 4, 5]],
    ]);
    expect(report.methods.find((r) => r.method === 'moa:layers=2,aggregator=strong')!.callsPerQuestion).toBe(7);
    const reflect = result.episodes.find((e) => e.tags.includes('method:self-reflect:weak,2'))!;
    expect(reflect.workflow!.steps.map((s) => [s.worker, s.access])).toEqual([
      [1, []],
      [1, 'all'],
      [1, 'all'],
    ]);
    // Round-robin sends item i at repeat r to worker (i + r) mod 3.
    for (const e of result.episodes.filter((x) => x.tags.includes('method:round-robin'))) {
      const k = runKeyOf(e, 'e1')!;
      expect(e.steps[0].worker).toBe((Number(k.item.slice(1)) + k.repeat) % 3);
    }
  });

  it('puts the oracle at or above every single worker, right exactly where one of them was right', async () => {
    const { calls, built } = await setup(['oracle']);
    expect(built.added).toEqual(['single:strong', 'single:weak', 'single:mid']);
    const result = await runEvaluation(base(built, calls.pool));
    const report = buildReport(result.episodes, { evalId: 'e1', methods: built.added, oracle: { singles: built.added } });
    const oracle = report.methods.find((r) => r.method === 'oracle')!;
    for (const single of built.added) expect(oracle.accuracy).toBeGreaterThanOrEqual(report.methods.find((r) => r.method === single)!.accuracy);
    const anyRight = new Set(
      result.episodes
        .filter((e) => e.reward?.correct)
        .map((e) => {
          const k = runKeyOf(e, 'e1')!;
          return `${k.item}/${k.repeat}`;
        }),
    );
    expect(oracle.correct).toBe(anyRight.size);
    expect(oracle.accuracy).toBeGreaterThan(report.methods.find((r) => r.method === 'single:strong')!.accuracy);
    expect(oracle.callsPerQuestion).toBe(3);
  });

  it('resumes a stopped evaluation from its episodes and call log without repeating a finished call', async () => {
    const names = ['single:strong', 'self-reflect:mid,3', 'moa'];
    const full = await setup(names, 5);
    await runEvaluation(base(full.built, full.calls.pool));
    const needed = [...full.calls.finished].sort();

    const { calls, built } = await setup(names, 5);
    const stored: Episode[] = [];
    const logged: LoggedCall[] = [];
    const controller = new AbortController();
    const first = await runEvaluation({
      ...base(built, calls.pool),
      calls: memoryCallLog([], (c) => void logged.push(c)),
      signal: controller.signal,
      onEpisode: (e) => void stored.push(e),
      onProgress: (p) => {
        if (p.done >= 30) controller.abort();
      },
    });
    expect(first.stopped).toBe(true);
    expect(first.remaining).toBeGreaterThan(0);
    const before = calls.finished.length;
    expect(before).toBeLessThan(needed.length);
    // Runs cut off part-way had finished calls the log kept: those are answered from it on resume.
    expect(logged.length).toBeGreaterThan(stored.reduce((n, e) => n + e.steps.length, 0));

    const second = await runEvaluation({ ...base(built, calls.pool), stored, calls: memoryCallLog(logged), onEpisode: (e) => void stored.push(e) });
    expect(second.remaining).toBe(0);
    expect(second.episodes).toHaveLength(ITEMS.length * 2 * 3);
    // A call answered from the log takes as long as it first did: a chain of steps is no faster for having been cut.
    // (Up to a millisecond a step of slack: a timer may fire that much before the clock the steps are timed by says.)
    for (const e of second.episodes.filter((x) => x.tags.includes('method:self-reflect:mid,3'))) {
      expect(e.totals.latencyMs).toBeGreaterThanOrEqual(e.steps.reduce((t, st) => t + st.latencyMs, 0) - e.steps.length);
    }
    // Every call finished once: the very calls the uninterrupted run made, none of them twice.
    expect([...calls.finished].sort()).toEqual(needed);
    // The resumed evaluation's results are the uninterrupted one's (simulated workers are seeded).
    const correct = (eps: Episode[]) => eps.filter((e) => e.reward?.correct).length;
    const again = await setup(names);
    expect(correct(second.episodes)).toBe(correct((await runEvaluation(base(again.built, again.calls.pool))).episodes));
  });

  it('stops at the shared budget, never passing it, and finishes on resume with a larger one', async () => {
    const { calls, built } = await setup(['single:strong', 'single:mid']);
    const first = await runEvaluation({ ...base(built, calls.pool), budgetUsd: 0.01 });
    expect(first.overBudget).toBe(true);
    const spent = first.episodes.reduce((s, e) => s + (e.totals.costUsd ?? 0), 0);
    expect(spent).toBeLessThanOrEqual(0.01);
    expect(first.remaining).toBeGreaterThan(0);
    const second = await runEvaluation({ ...base(built, calls.pool), budgetUsd: 10, stored: first.episodes });
    expect(second.remaining).toBe(0);
    expect(second.overBudget).toBe(false);
  });

  it('keeps at most `concurrency` runs going at once', async () => {
    const { calls, built } = await setup(['single:strong', 'single:weak'], 5);
    await runEvaluation({ ...base(built, calls.pool), concurrency: 3 });
    expect(calls.peak()).toBe(3);
  });

  it('refuses items without distinct ids', async () => {
    const { calls, built } = await setup(['single:strong']);
    await expect(runEvaluation({ ...base(built, calls.pool), items: [ITEMS[0], { ...ITEMS[1], itemId: 'q0' }] })).rejects.toThrow(/repeated: q0/);
  });
});

import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { hashString } from '../../../../src/core/random.ts';
import { createWorkerModel } from '../../../../src/core/providers/create-worker.ts';
import { createSimulatedWorker } from '../../../../src/core/providers/simulated/index.ts';
import { buildRecursionTurn } from '../../../../src/core/workflow/index.ts';
import { peakConcurrency, startFakeProviderServer, type FakeProviderServer } from '../../../support/fake-provider-server.ts';
import type { Episode } from '../../../../src/core/episodes/index.ts';
import {
  compactPrompt,
  loraState,
  runGrpo,
  type GrpoBatch,
  type GrpoCheckpoint,
  type GrpoConfig,
  type GrpoStepMetrics,
  type LoraTrainingState,
  type PolicyPrompt,
  type TrainablePolicy,
  type TrainingState,
  type TrainStepOptions,
  type TrainStepResult,
} from '../../../../src/core/rl/index.ts';
import type { Task } from '../../../../src/core/task.ts';
import { ScriptedPolicy, type Choice } from './scripted-policy.ts';

/** Worker 0 always right, 1 always wrong, 2 right and dear. */
const pool = [
  createSimulatedWorker({ id: 'right', provider: 'simulated', model: 'r', price: { input: 1, output: 1 }, simulated: { skill: { default: 1 }, latencyMs: 0 } }),
  createSimulatedWorker({ id: 'wrong', provider: 'simulated', model: 'w', price: { input: 1, output: 1 }, simulated: { skill: { default: 0 }, latencyMs: 0 } }),
  createSimulatedWorker({
    id: 'dear',
    provider: 'simulated',
    model: 'd',
    price: { input: 50, output: 50 },
    simulated: { skill: { default: 1 }, latencyMs: 0 },
  }),
];
const tasks: Task[] = Array.from({ length: 6 }, (_, i) => ({ question: `What is ${i} + ${i}?`, answer: String(2 * i), kind: 'number' }));
const heldOut: Task[] = [{ question: 'What is 10 + 1?', answer: '11', kind: 'number' }];

/**
 * A trainable stand-in: its "weights" are the number of updates taken, and which plan it samples
 * depends on them, the sampling seed and the completion index (or on what `pick` says); the state
 * exports as that count.
 */
class ScriptedTrainable implements TrainablePolicy {
  updates = 0;
  readonly batches: GrpoBatch[] = [];
  readonly options: TrainStepOptions[] = [];
  constructor(private readonly pick?: (prompt: PolicyPrompt) => Choice) {}
  readonly sampler = new ScriptedPolicy((seed, i, prompt): Choice => {
    if (this.pick) return this.pick(prompt);
    const h = hashString(`${seed} ${i} ${this.updates}`) % 4;
    return h === 3 ? 'malformed' : h;
  });
  promptIds = this.sampler.promptIds.bind(this.sampler);
  generateGroup = this.sampler.generateGroup.bind(this.sampler);
  logprobs = this.sampler.logprobs.bind(this.sampler);
  async trainStep(batch: GrpoBatch, options: TrainStepOptions): Promise<TrainStepResult> {
    this.batches.push(batch);
    this.options.push(options);
    this.updates++;
    const clipRatio = { lowMean: 0, highMean: 0, regionMean: 0.25, lowMin: 0, highMax: 0 };
    return { loss: 0.5 + this.updates, gradNorm: 2, clipRatio, entropy: 1.5, tokens: 12, lr: 0.01, step: this.updates, timeMs: 3 };
  }
  async exportState(): Promise<LoraTrainingState> {
    return { adapterConfig: '{}', adapter: Uint8Array.of(this.updates), optimizer: Uint8Array.of(this.updates * 2) };
  }
  async importState(state: TrainingState): Promise<void> {
    this.updates = loraState(state).adapter[0];
  }
}

const CONFIG: GrpoConfig = {
  steps: 4,
  questionsPerStep: 2,
  groupSize: 4,
  maxCompletionTokens: 40,
  temperature: 1,
  train: { grpo: { beta: 0, epsilonLow: 0.2, epsilonHigh: 0.2, lossType: 'bnpo', maxCompletionLength: 40 }, scaleRewards: 'group', microBatchSize: 4 },
  seed: 3,
  evalEvery: 2,
};

/** Metrics without wall-clock figures. */
const timeless = (ms: readonly GrpoStepMetrics[]) => ms.map(({ timeMs: _t, trainTokensPerSecond: _s, ...m }) => m);

describe('runGrpo', () => {
  it('trains on Q groups of G scored plans with the sampling logprobs as old_logprobs, and reports each step', async () => {
    const policy = new ScriptedTrainable();
    const seen: GrpoStepMetrics[] = [];
    const episodes: string[] = [];
    const run = await runGrpo(
      { ...CONFIG, steps: 1, evalEvery: 0 },
      { policy, pool, tasks, heldOut, onStep: (m) => seen.push(m), onEpisodes: (es) => episodes.push(...es.map((e) => e.group!)) },
    );
    expect(run).toMatchObject({ step: 1, stopped: false });
    expect(seen).toEqual(run.metrics);
    const [batch] = policy.batches;
    expect(batch.groups).toHaveLength(2);
    expect(policy.options[0]).toMatchObject({ temperature: 1, scaleRewards: 'group', microBatchSize: 4 });
    const sampled = policy.sampler.calls.map((c) => c.options);
    expect(sampled.map((o) => o.n)).toEqual([4, 4]);
    expect(new Set(sampled.map((o) => o.sampling.seed)).size).toBe(2);
    const completions = batch.groups.flatMap((g) => g.completions);
    for (const c of completions) expect(c.oldLogprobs).toEqual(c.ids.map((t) => -t / 1000));
    // Rewards follow the chosen worker: 1 right (0 or 2), 0.5 wrong (1), 0 malformed (id 199).
    const expected = (id: number) => (id === 199 ? 0 : id === 101 ? 0.5 : 1);
    expect(completions.map((c) => c.reward)).toEqual(completions.map((c) => expected(c.ids[0])));

    const [m] = run.metrics;
    const rewards = completions.map((c) => c.reward);
    const parsed = completions.filter((c) => c.ids[0] !== 199);
    expect(m).toMatchObject({
      step: 1,
      questions: 2,
      completions: 8,
      excluded: 0,
      loss: 1.5,
      gradNorm: 2,
      entropy: 1.5,
      clipRatio: 0.25,
      lr: 0.01,
      conductorTokens: 3,
    });
    expect(m.rewardMean).toBeCloseTo(rewards.reduce((a, b) => a + b) / 8, 12);
    expect(m.accuracy).toBe(rewards.filter((r) => r === 1).length / 8);
    expect(m.formatRate).toBe(parsed.length / 8);
    expect(m.workerChoices).toEqual([0, 1, 2].map((w) => parsed.filter((c) => c.ids[0] === 100 + w).length));
    expect(m.workflowLength).toBe(1);
    expect(m.costUsd).toBeGreaterThan(0);
    expect(m.heldOutAccuracy).toBeUndefined();
    expect(new Set(episodes)).toEqual(new Set(['grpo-3/step-1/q-0', 'grpo-3/step-1/q-1']));
  });

  it('takes mu updates on each batch, reporting the loss at the sampling weights and the mean gradient norm', async () => {
    const policy = new ScriptedTrainable();
    const run = await runGrpo({ ...CONFIG, steps: 2, iterations: 3, evalEvery: 0 }, { policy, pool, tasks, heldOut });
    expect(policy.batches).toHaveLength(6);
    expect(policy.batches[1]).toBe(policy.batches[0]);
    expect(policy.batches[3]).not.toBe(policy.batches[2]);
    // The stand-in's loss is 0.5 + its update count: the step's first update is the 1st, then the 4th.
    expect(run.metrics.map((m) => [m.loss, m.gradNorm])).toEqual([
      [1.5, 2],
      [4.5, 2],
    ]);
    await expect(runGrpo({ ...CONFIG, iterations: 0 }, { policy, pool, tasks, heldOut })).rejects.toMatchObject({ code: 'run/config' });
  });

  it('measures held-out accuracy with one greedy sample per question every evalEvery steps', async () => {
    const policy = new ScriptedTrainable();
    const run = await runGrpo({ ...CONFIG, steps: 5 }, { policy, pool, tasks, heldOut });
    expect(run.metrics.map((m) => m.heldOutAccuracy !== undefined)).toEqual([false, true, false, true, false]);
    const evals = policy.sampler.calls.filter((c) => c.options.n === 1);
    expect(evals).toHaveLength(2);
    for (const e of evals) expect(e.options.sampling.temperature).toBe(0);
  });

  it('resumed from a checkpoint after a stop, gives the run it would have been without the stop', async () => {
    const straight = new ScriptedTrainable();
    const whole = await runGrpo(CONFIG, { policy: straight, pool, tasks, heldOut });

    const saved: GrpoCheckpoint[] = [];
    const stop = new AbortController();
    const first = new ScriptedTrainable();
    const part = await runGrpo(
      { ...CONFIG, checkpointEvery: 3 },
      {
        policy: first,
        pool,
        tasks,
        heldOut,
        signal: stop.signal,
        checkpoints: { save: async (c) => void saved.push(c) },
        onStep: (m) => m.step === 2 && stop.abort(),
      },
    );
    expect(part).toMatchObject({ step: 2, stopped: true });
    expect(saved.map((c) => c.step)).toEqual([2]);
    expect(saved[0]).toMatchObject({ seed: 3, state: { adapter: Uint8Array.of(2) } });

    const second = new ScriptedTrainable();
    const rest = await runGrpo(CONFIG, { policy: second, pool, tasks, heldOut, resume: saved[0] });
    expect(rest.step).toBe(4);
    expect(timeless(rest.metrics)).toEqual(timeless(whole.metrics));
    expect([...first.batches, ...second.batches]).toEqual(straight.batches);
    expect(await second.exportState()).toEqual(await straight.exportState());
  });

  it('checkpoints a step whose update was applied when stopped during its held-out evaluation', async () => {
    const saved: GrpoCheckpoint[] = [];
    const stop = new AbortController();
    const policy = new ScriptedTrainable();
    const sample = policy.generateGroup;
    policy.generateGroup = (prompt, options) => {
      if (options.n === 1) stop.abort();
      return sample(prompt, options);
    };
    const run = await runGrpo(CONFIG, { policy, pool, tasks, heldOut, signal: stop.signal, checkpoints: { save: async (c) => void saved.push(c) } });
    expect(run).toMatchObject({ step: 2, stopped: true });
    expect(saved.map((c) => [c.step, c.metrics.length, loraState(c.state).adapter[0]])).toEqual([[2, 2, 2]]);
    expect(saved[0].metrics[1].heldOutAccuracy).toBeUndefined();
  });

  it('counts every dollar paid in a step, held-out evaluation included, and starts no step once the budget is spent', async () => {
    const costs: number[] = [];
    const saved: number[] = [];
    // A step served from the response cache was paid by the call that fetched it.
    const onEpisodes = (es: Episode[]) => void costs.push(...es.flatMap((e) => e.steps.map((s) => (s.fromCache ? 0 : (s.costUsd ?? 0)))));
    const whole = await runGrpo({ ...CONFIG, steps: 2 }, { policy: new ScriptedTrainable(), pool, tasks, heldOut, onEpisodes });
    const spent = whole.metrics.map((m) => m.spentUsd);
    expect(spent.reduce((a, b) => a + b)).toBeCloseTo(
      costs.reduce((a, b) => a + b),
      12,
    );
    expect(spent.every((usd) => usd > 0)).toBe(true);

    const capped = await runGrpo(
      { ...CONFIG, steps: 4, budgetUsd: spent[0] },
      { policy: new ScriptedTrainable(), pool, tasks, heldOut, checkpoints: { save: async (c) => void saved.push(c.step) } },
    );
    expect(capped).toMatchObject({ step: 1, stopped: false, overBudget: true });
    expect(saved).toEqual([1]);
  });

  it('shows each training question poolSize of the workers, shuffled and renumbered, and counts choices by pool index', async () => {
    const policy = new ScriptedTrainable();
    const episodes: Episode[] = [];
    const run = await runGrpo(
      { ...CONFIG, steps: 3, poolSize: 2, evalEvery: 0, prompt: compactPrompt },
      { policy, pool, tasks, heldOut, onEpisodes: (es) => void episodes.push(...es) },
    );
    for (const c of policy.sampler.calls) expect((c.prompt[0] as { content: string }).content).toMatch(/over models 0-1 /);
    const ids = pool.map((w) => w.spec.id);
    const views = episodes.map((e) => e.pool.map((w) => ids.indexOf(w.id)));
    for (const v of views) expect(new Set(v).size).toBe(2);
    expect(new Set(views.map(String)).size).toBeGreaterThan(2);
    expect(views.some(([a, b]) => a > b)).toBe(true);
    const expected = [0, 0, 0];
    episodes.forEach((e, i) => e.workflow?.steps.forEach((s) => expected[views[i][s.worker]]++));
    const counted = run.metrics.reduce((sum, m) => sum.map((n, w) => n + m.workerChoices[w]), [0, 0, 0]);
    expect(counted).toEqual(expected);
    expect(counted.reduce((a, b) => a + b)).toBeGreaterThan(0);
    await expect(runGrpo({ ...CONFIG, poolSize: 4 }, { policy, pool, tasks, heldOut })).rejects.toMatchObject({ code: 'run/config' });
  });

  it('saves every checkpointEvery steps and at the end', async () => {
    const saved: number[] = [];
    await runGrpo(
      { ...CONFIG, checkpointEvery: 2, evalEvery: 0 },
      { policy: new ScriptedTrainable(), pool, tasks, heldOut, checkpoints: { save: async (c) => void saved.push(c.step) } },
    );
    expect(saved).toEqual([2, 4]);
    saved.length = 0;
    await runGrpo(
      { ...CONFIG, steps: 3, checkpointEvery: 2, evalEvery: 0 },
      { policy: new ScriptedTrainable(), pool, tasks, heldOut, checkpoints: { save: async (c) => void saved.push(c.step) } },
    );
    expect(saved).toEqual([2, 3]);
  });

  it('refuses more questions per step than tasks, and a checkpoint of another seed', async () => {
    await expect(runGrpo({ ...CONFIG, questionsPerStep: 7 }, { policy: new ScriptedTrainable(), pool, tasks, heldOut })).rejects.toMatchObject({
      code: 'run/config',
    });
    const resume: GrpoCheckpoint = { step: 1, seed: 4, state: await new ScriptedTrainable().exportState(), metrics: [] };
    await expect(runGrpo(CONFIG, { policy: new ScriptedTrainable(), pool, tasks, heldOut, resume })).rejects.toMatchObject({ code: 'run/config' });
  });
});

describe('runGrpo worker calls', () => {
  let server: FakeProviderServer;
  // Long enough that a step's calls overlap to the cap even on a loaded machine.
  beforeAll(async () => void (server = await startFakeProviderServer({ fallback: { text: 'ok', usage: { input: 100, output: 10 }, firstByteDelayMs: 300 } })));
  afterAll(() => server.close());
  beforeEach(() => server.reset());
  /** Three priced workers behind one real HTTP server. */
  const remote = () =>
    ['m0', 'm1', 'm2'].map((model) =>
      createWorkerModel(
        { id: model, provider: 'openai-compatible', model, baseUrl: `${server.url}/v1`, price: { input: 1, output: 2 } },
        { apiKey: 'k', retry: { attempts: 1 } },
      ),
    );
  const posts = () => server.requests.filter((r) => r.method === 'POST');
  const one = { ...CONFIG, steps: 1, evalEvery: 0 };

  it("runs all of a step's plans at once, never more calls in flight per provider than its cap, and completes them all", async () => {
    const run = await runGrpo(
      { ...one, concurrency: { 'openai-compatible': 5 }, responseCache: false },
      { policy: new ScriptedTrainable((p) => Number(JSON.stringify(p).length % 3)), pool: remote(), tasks, heldOut },
    );
    await server.settled();
    expect(run.metrics[0]).toMatchObject({ completions: 8, excluded: 0 });
    expect(posts()).toHaveLength(8);
    expect(posts().every((r) => r.outcome === 'completed')).toBe(true);
    // Both questions' groups at once (8 calls), held to 5.
    expect(peakConcurrency(posts())).toBe(5);
  });

  it("evaluates the held-out questions at once: their workflows' calls overlap, each question's episode kept", async () => {
    const questions: Task[] = Array.from({ length: 4 }, (_, i) => ({ question: `Held out ${i}: what is ${i} + 20?`, answer: String(i + 20), kind: 'number' }));
    const episodes: Episode[] = [];
    const run = await runGrpo(
      { ...one, evalEvery: 1, responseCache: false },
      { policy: new ScriptedTrainable(() => 0), pool: remote(), tasks, heldOut: questions, onEpisodes: (es) => void episodes.push(...es) },
    );
    await server.settled();
    const heldOutPosts = posts().filter((r) => JSON.stringify(r.body).includes('Held out'));
    expect(heldOutPosts).toHaveLength(4);
    expect(peakConcurrency(heldOutPosts)).toBe(4);
    expect(episodes.filter((e) => e.tags.includes('held-out')).map((e) => e.task.question)).toEqual(questions.map((q) => q.question));
    expect(run.metrics[0].heldOutAccuracy).toBe(0);
  });

  it('pays an identical call once: the server sees one request for G identical plans, the cost terms stay, the dollars paid drop', async () => {
    const cfg = { ...one, rewardScheme: { formatError: 0, wrong: 0.5, correct: 1, costWeight: 10 } };
    const same = () => new ScriptedTrainable(() => 0);
    const episodes: Episode[] = [];
    const cached = await runGrpo(cfg, { policy: same(), pool: remote(), tasks, heldOut, onEpisodes: (es) => void episodes.push(...es) });
    expect(posts()).toHaveLength(2); // one per question
    server.reset();
    const uncachedPolicy = same();
    const uncached = await runGrpo({ ...cfg, responseCache: false }, { policy: uncachedPolicy, pool: remote(), tasks, heldOut });
    expect(posts()).toHaveLength(8);

    // Each workflow is still charged its call: the rewards GRPO trains on are the same.
    const rewards = (p: ScriptedTrainable) => p.batches[0].groups.flatMap((g) => g.completions.map((c) => c.reward));
    expect(rewards(uncachedPolicy)).toEqual(episodes.map((e) => e.reward!.value));
    expect(cached.metrics[0].costUsd).toBeCloseTo(uncached.metrics[0].costUsd, 12);
    expect(cached.metrics[0].costUsd).toBeGreaterThan(0);
    expect(episodes.every((e) => e.steps[0].costUsd! > 0 && e.reward!.value < 0.5)).toBe(true);
    // Three of each group's four steps were served from the cache, and only the fourth was paid.
    expect(episodes.map((e) => e.steps[0].fromCache ?? false).filter(Boolean)).toHaveLength(6);
    expect(cached.metrics[0].spentUsd).toBeCloseTo(uncached.metrics[0].spentUsd / 4, 12);
  });
});

describe('runGrpo with recursion', () => {
  const recursed = (p: PolicyPrompt) => JSON.stringify(p).includes('Your workflow has run');
  /** Round 0 asks the wrong worker, the recursion round the right one. */
  const policy = () => new ScriptedTrainable((p) => (recursed(p) ? 0 : 1));

  it("runs a second round and trains the first round's tokens on the mixed reward (1 - d) r0 + d r1", async () => {
    const trainable = policy();
    const episodes: Episode[] = [];
    await runGrpo(
      { ...CONFIG, steps: 1, evalEvery: 0, recursionDepth: 1, prompt: compactPrompt },
      { policy: trainable, pool, tasks, heldOut, onEpisodes: (es) => void episodes.push(...es) },
    );
    expect(episodes).toHaveLength(8);
    for (const e of episodes) {
      expect(e.rounds).toHaveLength(1);
      expect(e.steps[0].workerId).toBe('wrong');
      expect(e.rounds[0].steps[0].workerId).toBe('right');
      // The second round continues the prompt the policy was shown in the first, with the first round's result.
      expect(e.rounds[0].prompt).toEqual(
        buildRecursionTurn({ messages: e.prompt, completion: e.completion.text, finalResponse: e.steps[0].output, maxSteps: 5 }),
      );
      expect(e.rounds[0].completion.tokenIds).toEqual([100, 7, 1]);
      expect(e.reward).toMatchObject({ correct: true, value: 0.75 * 0.5 + 0.25 * 1, details: { firstRoundValue: 0.5, finalValue: 1 } });
    }
    const [batch] = trainable.batches;
    const trained = batch.groups.flatMap((g) => g.completions);
    expect(trained).toHaveLength(8);
    // The loss sees the first round's completion (its own prompt's group), not the recursion round's.
    for (const c of trained) {
      expect(c.ids[0]).toBe(101);
      expect(c.reward).toBe(0.625);
    }
    expect(trainable.sampler.calls.filter((c) => recursed(c.prompt)).every((c) => c.options.n === 1)).toBe(true);
  });

  it('takes d from recursionMix', async () => {
    const trainable = policy();
    await runGrpo({ ...CONFIG, steps: 1, evalEvery: 0, recursionDepth: 1, recursionMix: 0.2 }, { policy: trainable, pool, tasks, heldOut });
    expect(trainable.batches[0].groups[0].completions[0].reward).toBeCloseTo(0.8 * 0.5 + 0.2 * 1, 12);
  });
});

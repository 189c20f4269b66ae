/**
 * createConductor and conductorMaker over a fake host: what the host refuses, refused before anything loads and
 * named; a pool worker and a remote endpoint playing the Conductor at temperature 1; a plan file read once; the
 * demo giving way to random routing where the GPU is too weak; a model loaded once (again after a failure), run
 * as it was trained, sampled from each run's seed, its generations in turn on the host's GPU queue.
 */
import { describe, expect, it } from 'vitest';
import {
  conductorMaker,
  createConductor,
  DEMO_ENGINE_MODEL,
  type ConductorHost,
  type ConductorRun,
  type ConductorSettings,
} from '../../../../src/core/conductor/index.ts';
import { BatonError } from '../../../../src/core/errors/index.ts';
import type { Conductor } from '../../../../src/core/orchestra/index.ts';
import type { WorkerModel } from '../../../../src/core/providers/index.ts';
import type { Policy } from '../../../../src/core/rl/index.ts';

const worker = (id: string, calls: string[] = []): WorkerModel => ({
  spec: { id, provider: 'openai-compatible', model: id, baseUrl: 'http://127.0.0.1:9/v1' },
  supportsPrefill: false,
  async call(req) {
    calls.push(`${id} t=${req.temperature}`);
    return { text: 'model_id = [0]\nsubtasks = ["Solve it."]\naccess_list = [[]]', usage: { input: 1, output: 1 }, latencyMs: 1, attempts: 1 };
  },
});

const POOL = [worker('a'), worker('b')];
const RUN: ConductorRun = { task: { question: '2 + 2?', kind: 'number' }, pool: POOL };
const SETTINGS: ConductorSettings = { poolIds: ['a', 'b'], maxSteps: 3, access: 'binary', where: 'Method "m"' };
const refuse = () => Promise.reject(new Error('not asked for'));

/** A host that loads nothing unless told; `turns` counts generations queued on its GPU. */
function fakeHost(over: Partial<ConductorHost> = {}) {
  const host = {
    turns: 0,
    cannotRun: () => undefined,
    gpu: {
      run<T>(work: () => Promise<T>) {
        host.turns++;
        return work();
      },
    },
    loadEngine: refuse,
    readPlan: refuse,
    remoteWorker: refuse,
    ...over,
  };
  return host;
}

describe('what the host cannot run', () => {
  it('is refused before anything loads, named as the caller names the choice', async () => {
    const host = fakeHost({ cannotRun: (c) => (c.kind === 'webllm-model' ? `web-llm runs in a browser tab.` : undefined) });
    await expect(conductorMaker({ kind: 'webllm-model', modelId: 'q' }, host, SETTINGS)).rejects.toMatchObject({
      code: 'run/config',
      message: 'Method "m": web-llm runs in a browser tab.',
    });
  });

  it('includes a pool worker that is not in the pool', async () => {
    await expect(conductorMaker({ kind: 'pool-worker', workerId: 'zeta' }, fakeHost(), SETTINGS)).rejects.toThrow(
      'Method "m": no worker "zeta" in the pool (ids: a, b).',
    );
  });
});

describe('workers playing the Conductor', () => {
  it("has a pool worker write the plan at temperature 1, the run's own worker", async () => {
    const calls: string[] = [];
    const conductor = await createConductor({ kind: 'pool-worker', workerId: 'b' }, fakeHost(), SETTINGS, {
      ...RUN,
      pool: [worker('a', calls), worker('b', calls)],
    });
    expect(conductor.info).toMatchObject({ runtime: 'worker', model: 'b', sampling: { temperature: 1 } });
    await conductor.generate({ messages: [{ role: 'user', content: 'plan' }] });
    expect(calls).toEqual(['b t=1']);
  });

  it('builds a remote endpoint once, and records it for each run', async () => {
    const built: string[] = [];
    const host = fakeHost({ remoteWorker: async (baseUrl, model) => (built.push(`${model}@${baseUrl}`), worker(model)) });
    const maker = await conductorMaker({ kind: 'remote-endpoint', model: 'planner', baseUrl: 'http://127.0.0.1:8000/v1' }, host, SETTINGS);
    const recorded: string[] = [];
    for (const seed of [1, 2]) await maker.conductor({ ...RUN, seed, record: (w) => (recorded.push(w.spec.id), w) });
    expect(built).toEqual(['planner@http://127.0.0.1:8000/v1']);
    expect(recorded).toEqual(['planner', 'planner']);
  });
});

it("reads a plan file once, answers it every run, and names the choice in the host's error", async () => {
  const reads: string[] = [];
  const host = fakeHost({ readPlan: async (file) => (reads.push(file), 'the plan') });
  const maker = await conductorMaker({ kind: 'fixed-plan', file: 'p.txt' }, host, SETTINGS);
  for (const _ of [1, 2]) expect(await (await maker.conductor(RUN)).generate({ messages: [] })).toEqual({ text: 'the plan' });
  expect(reads).toEqual(['p.txt']);
  const missing = fakeHost({ readPlan: () => Promise.reject(new BatonError({ code: 'data/not-found', message: 'cannot read /x/p.txt (ENOENT).' })) });
  await expect(conductorMaker({ kind: 'fixed-plan', file: 'p.txt' }, missing, SETTINGS)).rejects.toMatchObject({
    code: 'data/not-found',
    message: 'Method "m": cannot read /x/p.txt (ENOENT).',
  });
});

describe('the demo model', () => {
  const randomRouting = { runtime: 'demo', model: 'untrained demo Conductor (random routing)' };

  it('gives way to random routing where the GPU is a software one, or cannot hold or run the model', async () => {
    const software = fakeHost({ hardwareGpu: async () => false, loadEngine: () => Promise.reject(new Error('loaded on a software GPU')) });
    expect((await createConductor({ kind: 'demo-auto' }, software, SETTINGS, RUN)).info).toEqual(randomRouting);
    for (const code of ['engine/no-adapter', 'engine/out-of-memory'] as const) {
      const weak = fakeHost({ loadEngine: () => Promise.reject(new BatonError({ code, message: 'too weak' })) });
      expect((await createConductor({ kind: 'demo-auto' }, weak, SETTINGS, RUN)).info).toEqual(randomRouting);
      expect((await createConductor({ kind: 'engine-model', model: DEMO_ENGINE_MODEL }, weak, { ...SETTINGS, demoGivesWay: true }, RUN)).info).toEqual(
        randomRouting,
      );
      // An evaluation of the demo model runs it or fails, never random routing in its name.
      await expect(createConductor({ kind: 'engine-model', model: DEMO_ENGINE_MODEL }, weak, SETTINGS, RUN)).rejects.toMatchObject({ code });
    }
  });

  it('fails for any other reason, and a model of its own never gives way', async () => {
    const missing = fakeHost({ loadEngine: () => Promise.reject(new BatonError({ code: 'engine/model-file', message: 'no config.json' })) });
    await expect(createConductor({ kind: 'demo-auto' }, missing, SETTINGS, RUN)).rejects.toMatchObject({ code: 'engine/model-file' });
    const weak = fakeHost({ loadEngine: () => Promise.reject(new BatonError({ code: 'engine/no-adapter', message: 'no GPU' })) });
    const own = { source: { from: 'hub', repo: 'a/b' }, weights: 'auto' } as const;
    await expect(createConductor({ kind: 'engine-model', model: own }, weak, { ...SETTINGS, demoGivesWay: true }, RUN)).rejects.toMatchObject({
      code: 'engine/no-adapter',
    });
  });
});

describe('a model on the host', () => {
  const PLAN = 'model_id = [1]\nsubtasks = ["Solve it."]\naccess_list = [[]]';
  const policy: Policy = {
    promptIds: () => {
      throw new Error('not asked for');
    },
    generateGroup: async (_prompt, options) => [
      { text: PLAN, tokens: [1, 2], logprobs: [-0.5, -0.25], finishReason: 'stop', seed: options.sampling?.seed } as never,
    ],
    logprobs: refuse,
  };

  it('loads once for every run, again after a failed load, and samples each run from its seed in turn on the GPU queue', async () => {
    let loads = 0;
    const host = fakeHost({
      loadEngine: async () => {
        if (++loads === 1) throw new BatonError({ code: 'engine/model-file', message: 'cut off' });
        return { policy, tokenizer: { eosTokenId: 0 } as never, vocabSize: 8, model: 'runs/m', adapter: 'runs/a' };
      },
    });
    const maker = await conductorMaker(
      { kind: 'engine-model', model: { source: { from: 'dir', path: 'runs/m' }, weights: 'auto', maxTokens: 64 } },
      host,
      SETTINGS,
    );
    await expect(maker.load()).rejects.toMatchObject({ code: 'engine/model-file' });
    const conductors: Conductor[] = [];
    for (const seed of [5, 6]) conductors.push(await maker.conductor({ ...RUN, seed }));
    expect(loads).toBe(2);
    expect(conductors.map((c) => c.info)).toEqual(
      [5, 6].map((seed) => ({ runtime: 'engine', model: 'runs/m', adapter: 'runs/a', sampling: { temperature: 1, seed, maxNewTokens: 64 } })),
    );
    expect(host.turns).toBe(0);
  });

  it('runs a trained model as it was trained: its prompt, greedily', async () => {
    const host = fakeHost({
      loadEngine: async () => ({ policy, tokenizer: {} as never, vocabSize: 8, model: 'm', format: { prompt: 'compact', constrain: false, maxSteps: 1 } }),
    });
    const conductor = await createConductor({ kind: 'engine-model', model: { source: { from: 'dir', path: 'm' }, weights: 'auto' } }, host, SETTINGS, {
      ...RUN,
      seed: 3,
    });
    expect(conductor.info.sampling).toEqual({ temperature: 0, seed: 3, maxNewTokens: 2048 });
    const out = await conductor.generate({ messages: [{ role: 'user', content: 'the Ask prompt' }] });
    expect(out.text).toBe(PLAN);
    expect(JSON.stringify(out.prompt)).toMatch(/Plan at most 1 steps over models 0-1/);
    expect(host.turns).toBe(1);
  });

  it('samples a trained model at temperature 1 when the run asks for samples (a comparison)', async () => {
    const host = fakeHost({
      loadEngine: async () => ({ policy, tokenizer: {} as never, vocabSize: 8, model: 'm', format: { prompt: 'compact', constrain: false, maxSteps: 1 } }),
    });
    const choice = { kind: 'engine-model', model: { source: { from: 'dir', path: 'm' }, weights: 'auto' } } as const;
    const conductor = await createConductor(choice, host, SETTINGS, { ...RUN, seed: 3, sample: true });
    expect(conductor.info.sampling).toEqual({ temperature: 1, seed: 3, maxNewTokens: 2048 });
  });

  it("runs web-llm with the run's seed and the Conductor's token budget, in turn on the GPU queue", async () => {
    const sampled: unknown[] = [];
    const host = fakeHost({
      loadWebllm: async (modelId) => (sampling) => (
        sampled.push(sampling),
        { info: { runtime: 'webllm', model: modelId }, generate: async () => ({ text: PLAN }) }
      ),
    });
    const conductor = await createConductor({ kind: 'webllm-model', modelId: 'q' }, host, SETTINGS, { ...RUN, seed: 11 });
    await conductor.generate({ messages: [] });
    expect(sampled).toEqual([{ temperature: 1, seed: 11, maxNewTokens: 2048 }]);
    expect(host.turns).toBe(1);
  });

  it('names a host without web-llm that did not refuse it as a bug', async () => {
    await expect(createConductor({ kind: 'webllm-model', modelId: 'q' }, fakeHost(), SETTINGS, RUN)).rejects.toThrow(/must refuse q in cannotRun/);
  });
});

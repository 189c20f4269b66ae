/** The Evaluate page's method choices: valid method strings for the pool, the Conductor page's choice first and checked where it can run here. */
import { expect, it } from 'vitest';
import { DEMO_CONDUCTOR_METHOD, methodChoices } from '../../../../../src/app/pages/evaluate/method-choices.ts';
import { DEMO_ENGINE_MODEL, type ConductorChoice, type EngineModelChoice } from '../../../../../src/client/index.ts';
import { buildMethods, parseMethodSpec } from '../../../../../src/core/bench/index.ts';
import type { ConductorHost } from '../../../../../src/core/conductor/index.ts';
import { DEMO_POOL } from '../../../../../src/core/providers/index.ts';

const pool = [...DEMO_POOL];

it('offers only methods core/bench builds over the pool', async () => {
  const { choices } = methodChoices(pool, { kind: 'pool-worker', workerId: 'sim-sage' });
  const methods = choices.map((c) => c.method);
  expect(new Set(methods).size).toBe(methods.length);
  for (const m of methods) parseMethodSpec(m, 'web');
  // The Conductor methods are handed to the evaluator worker's host, which loads a model only when the evaluation runs.
  const handed: ConductorChoice['kind'][] = [];
  const notRun = () => Promise.reject(new Error('not run here'));
  const host: ConductorHost = { cannotRun: () => undefined, gpu: { run: (work) => work() }, loadEngine: notRun, readPlan: notRun, remoteWorker: notRun };
  const conductorHost = (choice: ConductorChoice) => (handed.push(choice.kind), host);
  const built = await buildMethods(methods, { workers: pool, maxSteps: 3, naming: 'web', conductorHost });
  expect(handed).toEqual(['engine-model', ...pool.map(() => 'pool-worker')]);
  expect(built.oracle).toBe(true);
  expect(built.hindsight).toEqual([0]);
  expect(methods).toContain('conductor:worker:sim-euler');
  expect(methods).toContain('self-reflect:sim-atlas,2');
  const withPlan = methodChoices(pool, { kind: 'pool-worker', workerId: 'sim-sage' }, ['plan.txt']).choices.map((c) => c.method);
  expect(withPlan.at(-1)).toBe('fixed:plan.txt');
  expect(parseMethodSpec('fixed:plan.txt', 'web')).toEqual({ kind: 'fixed', file: 'plan.txt' });
});

it("checks the Conductor page's choice, every worker alone and the oracle; a model on picked files gets a note instead", () => {
  const worker = methodChoices(pool, { kind: 'pool-worker', workerId: 'sim-sage' });
  expect(worker.preset).toEqual(['conductor:worker:sim-sage', ...pool.map((w) => `single:${w.id}`), 'oracle']);
  expect(worker.note).toBeUndefined();
  const remote = methodChoices(pool, { kind: 'remote-endpoint', baseUrl: 'http://127.0.0.1:8000/v1', model: 'conductor-7b' });
  expect(remote.choices[0].method).toBe('conductor:remote:conductor-7b@http://127.0.0.1:8000/v1');
  expect(parseMethodSpec(remote.choices[0].method, 'web')).toEqual({
    kind: 'conductor',
    conductor: { kind: 'remote-endpoint', model: 'conductor-7b', baseUrl: 'http://127.0.0.1:8000/v1' },
  });
  expect(remote.preset[0]).toBe(remote.choices[0].method);
  const demo = methodChoices(pool, { kind: 'demo-auto' });
  expect(demo.preset[0]).toBe(DEMO_CONDUCTOR_METHOD);
  expect(demo.note).toBeUndefined();
  const picked = methodChoices(pool, { kind: 'engine-model', model: { source: { from: 'picked', name: 'my-model' }, weights: 'auto' } });
  expect(picked.preset[0]).toBe(`single:${pool[0].id}`);
  expect(picked.note).toMatch(/files picked there.*baton eval/);
});

it("names the tab's own Conductors so the evaluator worker reads back the same choice", () => {
  const models: EngineModelChoice[] = [
    DEMO_ENGINE_MODEL,
    { ...DEMO_ENGINE_MODEL, adapter: { from: 'trained', name: 'train-1-step-3' }, reasoning: false, prompt: 'compact' },
    { source: { from: 'hub', repo: 'Qwen/Qwen2.5-0.5B-Instruct' }, weights: 'auto' },
    { source: { from: 'url', url: 'http://127.0.0.1:9000/models/q/' }, weights: 'int4', adapter: { from: 'hub', repo: 'me/conductor-lora' }, reasoning: false },
    { source: { from: 'hub', repo: 'Qwen/Qwen3-0.6B' }, weights: 'f16', adapter: { from: 'url', url: 'https://example.org/lora/' } },
  ];
  for (const model of models) {
    const { choices, preset } = methodChoices(pool, { kind: 'engine-model', model });
    const method = preset[0];
    expect(choices.some((c) => c.method === method)).toBe(true);
    expect(parseMethodSpec(method, 'web')).toEqual({ kind: 'conductor', conductor: { kind: 'engine-model', model } });
  }
  expect(methodChoices(pool, { kind: 'engine-model', model: DEMO_ENGINE_MODEL }).preset[0]).toBe(DEMO_CONDUCTOR_METHOD);
  expect(methodChoices(pool, { kind: 'engine-model', model: { ...DEMO_ENGINE_MODEL, adapter: { from: 'picked', name: 'a' } } }).note).toMatch(
    /files picked there/,
  );
  const webllm = methodChoices(pool, { kind: 'webllm-model', modelId: 'Qwen2.5-1.5B-Instruct-q4f32_1-MLC' });
  expect(webllm.preset[0]).toBe('conductor:webllm:Qwen2.5-1.5B-Instruct-q4f32_1-MLC');
  expect(webllm.choices[0]).toEqual({ method: webllm.preset[0], label: 'Conductor: Qwen2.5-1.5B-Instruct-q4f32_1-MLC on web-llm' });
  expect(parseMethodSpec(webllm.preset[0], 'web')).toEqual({
    kind: 'conductor',
    conductor: { kind: 'webllm-model', modelId: 'Qwen2.5-1.5B-Instruct-q4f32_1-MLC' },
  });
});

/** The Evaluate page's method choices: valid method strings for the pool, the Conductor page's choice first and checked where it can run here. */
import { expect, it } from 'vitest';
import { methodChoices } from '../../../../../src/app/pages/evaluate/method-choices.ts';
import { buildMethods, parseMethodSpec } from '../../../../../src/core/bench/index.ts';
import { DEMO_POOL } from '../../../../../src/core/providers/index.ts';

const pool = [...DEMO_POOL];

it('offers only methods core/bench builds over the pool', async () => {
  const { choices } = methodChoices(pool, { kind: 'pool-worker', workerId: 'sim-sage' });
  const methods = choices.map((c) => c.method);
  expect(new Set(methods).size).toBe(methods.length);
  for (const m of methods) parseMethodSpec(m);
  const built = await buildMethods(methods, { workers: pool, maxSteps: 3, resolveConductor: () => Promise.reject(new Error('not here')) });
  expect(built.oracle).toBe(true);
  expect(methods).toContain('conductor:worker:sim-euler');
  expect(methods).toContain('self-reflect:sim-atlas,2');
  const withPlan = methodChoices(pool, { kind: 'pool-worker', workerId: 'sim-sage' }, ['plan.txt']).choices.map((c) => c.method);
  expect(withPlan.at(-1)).toBe('fixed:plan.txt');
  expect(parseMethodSpec('fixed:plan.txt')).toEqual({ kind: 'fixed', file: 'plan.txt' });
});

it("checks the Conductor page's choice, every worker alone and the oracle; a model Conductor gets a note instead", () => {
  const worker = methodChoices(pool, { kind: 'pool-worker', workerId: 'sim-sage' });
  expect(worker.preset).toEqual(['conductor:worker:sim-sage', ...pool.map((w) => `single:${w.id}`), 'oracle']);
  expect(worker.note).toBeUndefined();
  const remote = methodChoices(pool, { kind: 'remote-endpoint', baseUrl: 'http://127.0.0.1:8000/v1', model: 'conductor-7b' });
  expect(remote.choices[0].method).toBe('conductor:remote:conductor-7b@http://127.0.0.1:8000/v1');
  expect(parseMethodSpec(remote.choices[0].method)).toEqual({ kind: 'conductor', conductor: { kind: 'remote', model: 'conductor-7b', baseUrl: 'http://127.0.0.1:8000/v1' } });
  expect(remote.preset[0]).toBe(remote.choices[0].method);
  const engine = methodChoices(pool, { kind: 'demo-auto' });
  expect(engine.preset[0]).toBe(`single:${pool[0].id}`);
  expect(engine.note).toMatch(/baton eval/);
});

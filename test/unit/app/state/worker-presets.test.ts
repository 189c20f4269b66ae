/** The Workers page's presets: local workers need no key and cost nothing; the Conductor page's own engine model is offered as one. */
import { expect, test } from 'vitest';
import { conductorModelPreset, WORKER_PRESETS } from '../../../../src/app/state/worker-presets.ts';
import { engineWorkerChoice } from '../../../../src/services/runtimes/engine-worker-choice.ts';

test('the local presets run in the tab at no price', () => {
  const local = WORKER_PRESETS.filter((p) => p.spec.provider === 'engine' || p.spec.provider === 'webllm');
  expect(local.map((p) => `${p.spec.provider}:${p.spec.model}`)).toEqual(['engine:demo', 'webllm:Qwen2.5-1.5B-Instruct-q4f32_1-MLC']);
  for (const p of local) expect(p.spec.price).toEqual({ input: 0, output: 0 });
});

test("offers the Conductor page's engine model as a worker on the same load, and none for the demo, picked files or other Conductors", () => {
  const model = { source: { from: 'hub' as const, repo: 'me/conductor' }, weights: 'int4' as const, adapter: { from: 'trained' as const, name: 'run 3' } };
  const preset = conductorModelPreset({ kind: 'engine-model', model });
  expect(preset?.name).toBe('Your engine model: me/conductor + run 3 (trained in this browser) (in this tab)');
  expect(preset?.spec).toMatchObject({ provider: 'engine', model: 'me/conductor', weights: 'int4', adapter: 'trained:run 3', price: { input: 0, output: 0 } });
  expect(engineWorkerChoice({ id: 'w', ...preset!.spec })).toEqual(model);
  expect(conductorModelPreset({ kind: 'engine-model', model: { source: { from: 'demo' }, weights: 'f32' } })).toBeUndefined();
  expect(conductorModelPreset({ kind: 'engine-model', model: { source: { from: 'picked', name: 'dir' }, weights: 'f32' } })).toBeUndefined();
  expect(conductorModelPreset({ kind: 'random-routing' })).toBeUndefined();
});

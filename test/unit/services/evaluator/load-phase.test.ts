/** The evaluation's phase line while a Conductor method's model loads. */
import { expect, it } from 'vitest';
import type { ConductorLoadStatus } from '../../../../src/services/runtimes/index.ts';
import { loadPhase } from '../../../../src/services/evaluator/load-phase.ts';

it("says how far a load is: the engine's download and tensors, web-llm's shaders", () => {
  const status = (progress?: ConductorLoadStatus['progress']): ConductorLoadStatus => ({
    runtime: 'engine',
    model: 'demo-conductor',
    state: 'loading',
    ...(progress ? { progress } : {}),
  });
  expect(loadPhase(status())).toBe('Loading demo-conductor');
  expect(loadPhase(status({ phase: 'download', unit: 'bytes', loaded: 3 * 2 ** 19, total: 2 ** 21 }))).toBe(
    'Loading demo-conductor: downloading, 1.5 of 2.0 MB',
  );
  expect(loadPhase(status({ phase: 'download', unit: 'bytes', loaded: 2 ** 20 }))).toBe('Loading demo-conductor: downloading, 1.0 MB');
  expect(loadPhase(status({ phase: 'gpu', unit: 'items', loaded: 7, total: 20 }))).toBe('Loading demo-conductor: copying to the GPU, 7 of 20 tensors');
  expect(loadPhase(status({ phase: 'shaders', unit: 'items', loaded: 2, total: 9 }))).toBe('Loading demo-conductor: compiling GPU shaders, 2 of 9 shaders');
});

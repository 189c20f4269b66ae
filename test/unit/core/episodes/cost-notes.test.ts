import { describe, expect, it } from 'vitest';
import { simulatedPriceNote, spendingOf, unknownCostNote } from '../../../../src/core/episodes/cost-notes.ts';
import { createFixedConductor, runEpisode } from '../../../../src/core/orchestra/index.ts';
import { createSimulatedWorker } from '../../../../src/core/providers/simulated/index.ts';
import type { WorkerSpec } from '../../../../src/core/providers/types.ts';
import type { Task } from '../../../../src/core/task.ts';
import { renderWorkflow } from '../../../../src/core/workflow/index.ts';

const task: Task = { question: 'What is 6 * 7?', answer: '42', kind: 'number' };
const sim = (id: string, extra: Partial<WorkerSpec> = {}) =>
  createSimulatedWorker({ id, provider: 'simulated', model: id, simulated: { skill: { default: 1 } }, ...extra });
const plan = (workers: number[]) => createFixedConductor(renderWorkflow({ steps: workers.map((worker) => ({ worker, subtask: 'Solve it.', access: [] })) }));

describe('unknownCostNote', () => {
  it('blames a missing price, not a failed call, when every call succeeded', async () => {
    const ep = await runEpisode({ task, pool: [sim('a', { label: 'Local model' }), sim('b', { price: { input: 1, output: 1 } })], conductor: plan([0, 1]) });
    expect(ep.totals.costUsd).toBeNull();
    expect(unknownCostNote(spendingOf(ep))).toBe('$? means unknown: worker "Local model" (a) has no price.');
  });

  it('blames the failed call where one failed', async () => {
    const slow = sim('b', { price: { input: 1, output: 1 }, simulated: { skill: { default: 1 }, latencyMs: 1_000 } });
    const ep = await runEpisode({ task, pool: [sim('a'), slow], conductor: plan([0, 1]), options: { timeoutMs: 20 } });
    expect(unknownCostNote(spendingOf(ep))).toBe(
      '$? means unknown: worker "a" has no price and a call failed before its provider said how many tokens it used.',
    );
  });

  it('says nothing when the dollars are known', async () => {
    const ep = await runEpisode({ task, pool: [sim('a', { price: { input: 1, output: 1 } })], conductor: plan([0]) });
    expect(unknownCostNote(spendingOf(ep))).toBeUndefined();
  });
});

describe('simulatedPriceNote', () => {
  const real: WorkerSpec = { id: 'gpt', provider: 'openai', model: 'gpt-5', price: { input: 1, output: 1 } };

  it('says no money was spent when every priced step was simulated', async () => {
    const ep = await runEpisode({ task, pool: [sim('a', { price: { input: 1, output: 1 } })], conductor: plan([0, 0]) });
    expect(ep.totals.costUsd).toBeGreaterThan(0);
    expect(simulatedPriceNote(spendingOf(ep))).toBe('Simulated prices: the workers here are simulated, so no money was spent.');
  });

  it('names the simulated workers beside real ones, and says nothing without them', () => {
    const step = (worker: number) => ({
      index: worker,
      worker,
      workerId: '',
      subtask: '',
      access: [],
      messages: [],
      output: 'x',
      usage: { input: 1, output: 1 },
      costUsd: 0.5,
      latencyMs: 1,
      attempts: 1,
    });
    const pool = [real, { ...sim('a').spec, price: { input: 1, output: 1 } }];
    expect(simulatedPriceNote({ steps: [step(0), step(1)], pool, conductorCosts: [] })).toBe(
      'Simulated prices: "a" is simulated, so its dollars were not spent.',
    );
    expect(simulatedPriceNote({ steps: [step(0)], pool, conductorCosts: [0.25] })).toBeUndefined();
  });
});

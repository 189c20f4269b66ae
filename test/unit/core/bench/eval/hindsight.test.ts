import { describe, expect, it } from 'vitest';
import { hindsightBaselines, routingWorkflows } from '../../../../../src/core/bench/index.ts';
import { createSimulatedWorker } from '../../../../../src/core/providers/simulated/index.ts';
import type { WorkerSpec } from '../../../../../src/core/providers/index.ts';
import type { Task } from '../../../../../src/core/task.ts';

/** Workers whose outcomes are certain: each always right on one kind and always wrong on the other; checkers never change an answer. */
const certain = (id: string, mcq: number, number: number): WorkerSpec => ({
  id,
  provider: 'simulated',
  model: id,
  simulated: { skill: { default: 0, mcq, number }, confirmRight: 1, fixWrong: 0, latencyMs: 0 },
});
const pool = [certain('scholar', 1, 0), certain('reckoner', 0, 1), certain('dunce', 0, 0)].map(createSimulatedWorker);
const tasks: Task[] = [
  ...[1, 2, 3].map((i): Task => ({ question: `What is ${i} + ${i}?`, answer: String(2 * i), kind: 'number' })),
  { question: 'Which is largest? A. 3 B. 9', answer: 'B', kind: 'mcq', choices: ['3', '9'] },
];

describe('routingWorkflows', () => {
  it('lists every one-step workflow, then every answer-and-check pair', () => {
    const w = routingWorkflows(3);
    expect(w).toHaveLength(3 + 9);
    expect(w.slice(0, 3).map((x) => x.steps.map((s) => s.worker))).toEqual([[0], [1], [2]]);
    expect(w[3 + 2 * 3 + 1].steps.map((s) => [s.worker, s.access])).toEqual([
      [2, []],
      [1, 'all'],
    ]);
    expect(routingWorkflows(3, 1)).toEqual(w.slice(0, 3));
  });
});

describe('hindsightBaselines', () => {
  it('scores every workflow per kind, and finds the best fixed, the best per kind and the random-routing mean', async () => {
    const b = await hindsightBaselines(routingWorkflows(3), tasks, pool);
    const [scholar, reckoner, dunce] = b.workflows;
    expect(scholar.byKind).toEqual({ number: 0, mcq: 1 });
    expect(reckoner.accuracy).toBe(0.75);
    expect(dunce.accuracy).toBe(0);
    // A checker keeps the first answer, so a pair scores as its first worker.
    const pairs = b.workflows.slice(3).map((s) => s.accuracy);
    expect(pairs).toEqual([0.25, 0.25, 0.25, 0.75, 0.75, 0.75, 0, 0, 0]);
    expect(b.bestFixed.accuracy).toBe(0.75);
    expect(b.bestFixed.workflow).toEqual(reckoner.workflow);
    expect(b.bestPerKind.accuracy).toBe(1);
    expect(b.bestPerKind.byKind.mcq).toEqual(scholar.workflow);
    expect(b.randomRouting).toBeCloseTo((0.25 * 4 + 0.75 * 4) / 12, 12);
  });
});

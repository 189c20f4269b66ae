import { describe, expect, it } from 'vitest';
import { hindsightBaselines, routingWorkflows } from '../../../../../src/core/bench/index.ts';
import { createSimulatedWorker, DEMO_POOL } from '../../../../../src/core/providers/simulated/index.ts';
import type { Task, TaskKind } from '../../../../../src/core/task.ts';

// The demo pool's claims, measured: 100 seeded tasks per kind, no waiting (latency 0).
const pool = DEMO_POOL.map((s) => createSimulatedWorker({ ...s, simulated: { ...s.simulated!, latencyMs: 0 } }));

function tasks(kind: TaskKind): Task[] {
  return Array.from({ length: 100 }, (_, i) =>
    kind === 'mcq'
      ? { question: `Question ${i}?\nA. one\nB. two\nC. three\nD. four`, answer: 'ABCD'[i % 4], kind, choices: ['one', 'two', 'three', 'four'] }
      : { question: `What is ${i} + ${i * 7}?`, answer: String(i * 8), kind },
  );
}

const workersOf = (w: { steps: { worker: number }[] } | undefined) => w?.steps.map((s) => s.worker);

describe('DEMO_POOL', () => {
  const set = [...tasks('number'), ...tasks('mcq')];

  it('makes the workflow matter: the best fixed workflow is over 20 points below the best per kind, with one step or two', async () => {
    for (const steps of [1, 2] as const) {
      const b = await hindsightBaselines(routingWorkflows(DEMO_POOL.length, steps), set, pool);
      expect(b.bestPerKind.accuracy - b.bestFixed.accuracy).toBeGreaterThan(0.2);
      expect(b.bestPerKind.accuracy).toBeGreaterThan(0.85);
      expect(b.randomRouting).toBeLessThan(b.bestFixed.accuracy);
    }
  });

  it('wants the arithmetic expert checked by the cheap checker on sums, and the knowledge expert alone on multiple choice', async () => {
    const b = await hindsightBaselines(routingWorkflows(DEMO_POOL.length, 2), set, pool);
    expect(workersOf(b.bestPerKind.byKind.number)).toEqual([0, 2]);
    expect(workersOf(b.bestPerKind.byKind.mcq)).toEqual([1]);
    const score = (workers: number[]) => b.workflows.find((s) => JSON.stringify(workersOf(s.workflow)) === JSON.stringify(workers))!;
    // The checker that helps on sums hurts on multiple choice; the expensive all-rounder is a poor single choice.
    expect(score([1, 2]).byKind.mcq!).toBeLessThan(score([1]).byKind.mcq! - 0.2);
    expect(score([3]).accuracy).toBeLessThan(b.bestFixed.accuracy);
  });
});

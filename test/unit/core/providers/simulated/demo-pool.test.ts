import { describe, expect, it } from 'vitest';
import { executeWorkflow } from '../../../../../src/core/orchestra/index.ts';
import { createSimulatedWorker, DEMO_POOL } from '../../../../../src/core/providers/simulated/index.ts';
import { gradeAnswer } from '../../../../../src/core/reward/index.ts';
import type { Task, TaskKind } from '../../../../../src/core/task.ts';
import type { Workflow } from '../../../../../src/core/workflow/types.ts';

// The demo pool's claims, measured: 100 seeded tasks per kind, no waiting (latency 0).
const pool = DEMO_POOL.map((s) => createSimulatedWorker({ ...s, simulated: { ...s.simulated!, latencyMs: 0 } }));

function tasks(kind: TaskKind): Task[] {
  return Array.from({ length: 100 }, (_, i) =>
    kind === 'mcq'
      ? { question: `Question ${i}?\nA. one\nB. two\nC. three\nD. four`, answer: 'ABCD'[i % 4], kind, choices: ['one', 'two', 'three', 'four'] }
      : { question: `What is ${i} + ${i * 7}?`, answer: String(i * 8), kind },
  );
}

const single = (worker: number): Workflow => ({ steps: [{ worker, subtask: 'Solve the question.', access: [] }] });
const solveThenVerify = (solver: number, verifier: number): Workflow => ({
  steps: [
    { worker: solver, subtask: 'Solve the question.', access: [] },
    { worker: verifier, subtask: 'Check the answer above and give the final answer.', access: 'all' },
  ],
});

async function accuracy(workflow: Workflow, set: Task[]): Promise<number> {
  let right = 0;
  for (const task of set) {
    const { answer } = await executeWorkflow(workflow, { task, pool });
    if (gradeAnswer(answer, task).correct) right++;
  }
  return right / set.length;
}

describe('DEMO_POOL', () => {
  it('makes the workflow matter: the best single worker depends on the kind, and solve-then-verify beats it', async () => {
    const math = tasks('math');
    const mcq = tasks('mcq');
    const acc = {
      math: { w0: await accuracy(single(0), math), w1: await accuracy(single(1), math), w3: await accuracy(single(3), math), chain: await accuracy(solveThenVerify(0, 2), math) },
      mcq: { w0: await accuracy(single(0), mcq), w1: await accuracy(single(1), mcq), w3: await accuracy(single(3), mcq), chain: await accuracy(solveThenVerify(1, 2), mcq) },
    };
    expect(acc.math.w0).toBeGreaterThan(acc.math.w1);
    expect(acc.math.w0).toBeGreaterThan(acc.math.w3);
    expect(acc.mcq.w1).toBeGreaterThan(acc.mcq.w0);
    expect(acc.math.chain).toBeGreaterThan(acc.math.w0);
    expect(acc.mcq.chain).toBeGreaterThan(acc.mcq.w1);
    // The cheap verifier's chain beats the expensive all-rounder on both kinds.
    expect(acc.math.chain).toBeGreaterThan(acc.math.w3);
    expect(acc.mcq.chain).toBeGreaterThan(acc.mcq.w3);
  });
});

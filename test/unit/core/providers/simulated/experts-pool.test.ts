import { describe, expect, it } from 'vitest';
import { loadGsm8k, loadMmluCsv } from '../../../../../src/core/bench/datasets/index.ts';
import { executeWorkflow } from '../../../../../src/core/orchestra/index.ts';
import { createSimulatedWorker, EXPERTS_POOL, expertsTaskSet } from '../../../../../src/core/providers/simulated/index.ts';
import { gradeAnswer } from '../../../../../src/core/reward/index.ts';
import type { Task } from '../../../../../src/core/task.ts';
import type { Workflow } from '../../../../../src/core/workflow/index.ts';
import { listData, readData } from '../../../../support/data.ts';

const pool = EXPERTS_POOL.map(createSimulatedWorker);
const mcq = listData('mmlu/test').flatMap((f) => loadMmluCsv(readData(`mmlu/test/${f}`), f.replace(/_test\.csv$/, '')));
const arithmetic = loadGsm8k(readData('gsm8k/test.jsonl'));

/** Every workflow of one or two steps (the second reading the first), as issue 11 measured the pool. */
const workflows: Workflow[] = [
  ...[0, 1, 2, 3].map((w) => ({ steps: [{ worker: w, subtask: 'Solve the question.', access: [] as number[] }] })),
  ...[0, 1, 2, 3].flatMap((a) =>
    [0, 1, 2, 3].map((b) => ({
      steps: [
        { worker: a, subtask: 'Solve the question.', access: [] as number[] },
        { worker: b, subtask: 'Check the answer above and give the final answer.', access: 'all' as const },
      ],
    })),
  ),
];

async function accuracy(workflow: Workflow, set: readonly Task[]): Promise<number> {
  let right = 0;
  for (const task of set) if (gradeAnswer((await executeWorkflow(workflow, { task, pool })).answer, task).correct) right++;
  return right / set.length;
}

describe('EXPERTS_POOL and expertsTaskSet', () => {
  it('splits MMLU and GSM8K questions into train and held-out by the seed alone, each kind in proportion', () => {
    const a = expertsTaskSet(mcq, arithmetic, { perKind: 100, heldOutShare: 0.2, seed: 1 });
    expect(a.train).toHaveLength(160);
    expect(a.heldOut).toHaveLength(40);
    expect(a.heldOut.filter((t) => t.kind === 'mcq')).toHaveLength(20);
    const ids = (ts: Task[]) => ts.map((t) => `${t.dataset}/${t.itemId}`);
    expect(new Set([...ids(a.train), ...ids(a.heldOut)]).size).toBe(200);
    expect(ids(expertsTaskSet([...mcq].reverse(), [...arithmetic].reverse(), { perKind: 100, seed: 1 }).train)).toEqual(ids(a.train));
    expect(ids(expertsTaskSet(mcq, arithmetic, { perKind: 100, seed: 2 }).heldOut)).not.toEqual(ids(a.heldOut));
  });

  it('rewards routing by kind: the best per-kind workflow beats the best fixed one by over 20 points', async () => {
    const { train } = expertsTaskSet(mcq, arithmetic, { perKind: 150, seed: 0 });
    const byKind = { mcq: train.filter((t) => t.kind === 'mcq'), gsm8k: train.filter((t) => t.kind === 'gsm8k') };
    const scores = await Promise.all(workflows.map(async (w) => ({ mcq: await accuracy(w, byKind.mcq), gsm8k: await accuracy(w, byKind.gsm8k) })));
    const bestFixed = Math.max(...scores.map((s) => (s.mcq + s.gsm8k) / 2));
    const bestPerKind = (Math.max(...scores.map((s) => s.mcq)) + Math.max(...scores.map((s) => s.gsm8k))) / 2;
    expect(scores[0].mcq).toBeGreaterThan(0.85);
    expect(scores[0].gsm8k).toBeLessThan(0.3);
    expect(scores[3].gsm8k).toBeGreaterThan(0.85);
    expect(scores[3].mcq).toBeLessThan(0.3);
    expect(bestPerKind).toBeGreaterThan(0.88);
    expect(bestPerKind - bestFixed).toBeGreaterThan(0.2);
  });
});

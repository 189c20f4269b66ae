import { describe, expect, it } from 'vitest';
import { BudgetLedger, CallSlots } from '../../../../src/core/orchestra/index.ts';
import { createSimulatedWorker } from '../../../../src/core/providers/simulated/index.ts';
import type { WorkerModel } from '../../../../src/core/providers/index.ts';
import { scoreCompletion } from '../../../../src/core/rl/index.ts';
import type { Task } from '../../../../src/core/task.ts';

const task: Task = { question: 'What is 6 * 7?', answer: '42', kind: 'number' };
const plan = (...workers: number[]) =>
  `model_id = [${workers.join(', ')}]\nsubtasks = [${workers.map(() => '"Solve it."').join(', ')}]\naccess_list = [${workers.map(() => '[]').join(', ')}]`;

const sim = (id: string, skill: number, outputTokens = 20) =>
  createSimulatedWorker({
    id,
    provider: 'simulated',
    model: id,
    price: { input: 100, output: 100 },
    maxTokens: 1000,
    simulated: { skill: { default: skill }, latencyMs: 0, outputTokens },
  });

describe('scoreCompletion', () => {
  it('gives the reward a rollout trains on, and none for an infrastructure failure', async () => {
    const right = await scoreCompletion(task, [sim('r', 1)], plan(0), { group: 'g', tags: ['step:1'] });
    expect(right).toMatchObject({
      reward: 1,
      components: { correct: 1, format: 1 },
      episode: { group: 'g', tags: ['step:1'], conductor: { runtime: 'fixed' } },
    });
    const malformed = await scoreCompletion(task, [sim('r', 1)], 'no plan');
    expect(malformed).toMatchObject({ reward: 0, components: { correct: 0, format: 0, costUsd: 0 } });
  });

  it('charges every run to one shared budget: the run that cannot afford its call is an infrastructure error', async () => {
    // Worst case ~$0.1 a call; the first run spends ~$0.09 of a $0.15 budget, so the second cannot start its call.
    const budget = new BudgetLedger(0.15);
    const first = await scoreCompletion(task, [sim('r', 1, 900)], plan(0), { budget });
    const second = await scoreCompletion(task, [sim('r', 1, 900)], plan(0), { budget });
    expect(first.reward).toBe(1);
    expect(second.reward).toBeUndefined();
    expect(second.episode).toMatchObject({ status: 'budget', reward: { infraError: true } });
    expect(budget.spentUsd).toBeGreaterThan(0.08);
  });

  it('holds the worker calls of concurrent runs to the shared slots', async () => {
    let open = 0;
    let most = 0;
    const counting: WorkerModel = {
      spec: { id: 'c', provider: 'openai', model: 'x' },
      supportsPrefill: false,
      call: async () => {
        most = Math.max(most, ++open);
        await new Promise((r) => setTimeout(r, 20));
        open--;
        return { text: '<answer>42</answer>', usage: { input: 1, output: 1 }, latencyMs: 20, attempts: 1 };
      },
    };
    const slots = new CallSlots(2);
    const runs = await Promise.all([0, 1, 2].map(() => scoreCompletion(task, [counting], plan(0, 0), { slots })));
    expect(runs.map((r) => r.reward)).toEqual([1, 1, 1]);
    expect(most).toBe(2);
  });
});

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BudgetLedger, executeWorkflow, ResponseCache, type RunEvent } from '../../../../src/core/orchestra/index.ts';
import { createOpenAIWorker } from '../../../../src/core/providers/openai/openai-chat-model.ts';
import { createSimulatedWorker, DEMO_POOL } from '../../../../src/core/providers/simulated/index.ts';
import { seededRandom } from '../../../../src/core/random.ts';
import type { WorkerSpec } from '../../../../src/core/providers/types.ts';
import type { Task } from '../../../../src/core/task.ts';
import type { Access, Workflow } from '../../../../src/core/workflow/types.ts';
import { startFakeProviderServer, type FakeProviderServer } from '../../../support/fake-provider-server.ts';

const task: Task = { question: 'What is 6 * 7?', answer: '42', kind: 'number' };

function worker(id: string, latencyMs: number, extra: Partial<WorkerSpec> = {}) {
  return createSimulatedWorker({ id, provider: 'simulated', model: id, simulated: { skill: { default: 0.6 }, latencyMs }, ...extra });
}

function workflow(...access: Access[]): Workflow {
  return { steps: access.map((a, i) => ({ worker: i % 2, subtask: `Subtask ${i}.`, access: a })) };
}

function randomWorkflow(random: () => number): Workflow {
  const n = 1 + Math.floor(random() * 5);
  return {
    steps: Array.from({ length: n }, (_, i) => {
      const r = random();
      const access: Access = r < 0.3 ? 'all' : r < 0.5 ? [] : Array.from({ length: i }, (_, j) => j).filter(() => random() < 0.5);
      return { worker: Math.floor(random() * 4), subtask: `Do part ${i}.`, access };
    }),
  };
}

describe('executeWorkflow', () => {
  it('gives the same messages and outputs run concurrently as run in order, on random workflows', async () => {
    const random = seededRandom(7);
    // Latencies vary per worker so that concurrent steps finish in shuffled orders.
    const pool = DEMO_POOL.map((s, i) => createSimulatedWorker({ ...s, simulated: { ...s.simulated!, latencyMs: [3, 0, 5, 1][i] } }));
    const tasks: Task[] = [task, { question: 'Pick.\nA. x\nB. y\nC. z\nD. w', answer: 'B', kind: 'mcq' }];
    for (let k = 0; k < 24; k++) {
      const w = randomWorkflow(random);
      const t = tasks[k % 2];
      const together = await executeWorkflow(w, { task: t, pool });
      const inOrder = await executeWorkflow(w, { task: t, pool, options: { sequential: true } });
      const essentials = (r: typeof together) => r.steps.map((s) => ({ messages: s.messages, output: s.output, usage: s.usage, error: s.error }));
      expect(essentials(together)).toEqual(essentials(inOrder));
      expect(together.final).toBe(inOrder.final);
    }
  });

  it('shows each step exactly the steps its access list names', async () => {
    const pool = [worker('a', 0), worker('b', 0)];
    const result = await executeWorkflow(workflow([], [], [0], 'all'), { task, pool });
    const seen = result.steps.map((s) => [...s.messages[0].content.matchAll(/<Agent (\d) response>/g)].map((m) => Number(m[1])));
    expect(seen).toEqual([[], [], [0], [0, 1, 0]]); // agents named by model id: steps 0, 1, 2 ran on workers 0, 1, 0
    expect(result.steps[3].messages[0].content).toContain(result.steps[2].output);
    expect(result.final).toBe(result.steps[3].output);
  });

  it('starts every [] step at once, and an "all" step only after all of them', async () => {
    const events: RunEvent[] = [];
    await executeWorkflow(workflow([], [], [], 'all'), { task, pool: [worker('a', 5), worker('b', 5)], onEvent: (e) => events.push(e) });
    const order = events.filter((e) => e.type === 'step-started' || e.type === 'step-done').map((e) => `${e.type}:${'index' in e ? e.index : ''}`);
    expect(order.slice(0, 3)).toEqual(['step-started:0', 'step-started:1', 'step-started:2']);
    expect(order.indexOf('step-started:3')).toBeGreaterThan(Math.max(order.indexOf('step-done:0'), order.indexOf('step-done:1'), order.indexOf('step-done:2')));
  });

  it('starts a positional step as soon as the steps it lists are done, while others still run', async () => {
    const controller = new AbortController();
    const pool = [worker('slow', 60_000), worker('fast', 0)];
    const w: Workflow = {
      steps: [
        { worker: 0, subtask: 'Long job.', access: [] },
        { worker: 1, subtask: 'Quick job.', access: [] },
        { worker: 1, subtask: 'Build on the quick job.', access: [1] },
      ],
    };
    const result = await executeWorkflow(w, {
      task,
      pool,
      signal: controller.signal,
      onEvent: (e) => e.type === 'step-done' && e.index === 2 && controller.abort(),
    });
    expect(result.steps[2].error).toBeUndefined();
    expect(result.steps[2].output).not.toBe('');
    expect(result.steps[0].error?.code).toBe('run/aborted');
  });

  it('in sequential mode, waits for each step before the next', async () => {
    const events: RunEvent[] = [];
    await executeWorkflow(workflow([], []), { task, pool: [worker('a', 1), worker('b', 1)], options: { sequential: true }, onEvent: (e) => events.push(e) });
    const types = events.filter((e) => e.type !== 'step-delta' && e.type !== 'step-queued').map((e) => e.type);
    expect(types).toEqual(['step-started', 'step-done', 'step-started', 'step-done']);
  });

  it('on abort, stops the calls in flight and starts nothing more', async () => {
    const controller = new AbortController();
    const result = await executeWorkflow(workflow([], 'all'), {
      task,
      pool: [worker('a', 60_000), worker('b', 0)],
      signal: controller.signal,
      onEvent: (e) => e.type === 'step-started' && controller.abort(),
    });
    expect(result.steps.map((s) => s.error?.code)).toEqual(['run/aborted', 'run/aborted']);
    expect(result.steps[1].error?.message).toMatch(/^Not started/);
    expect(result.steps[1].messages).toEqual([]);
  });

  it('records a failed call on its step, lets running steps finish, and starts nothing after it', async () => {
    const pool = [worker('slow', 500), worker('quick', 0)];
    const result = await executeWorkflow(workflow([], [], 'all'), { task, pool, options: { timeoutMs: 50 } });
    expect(result.steps[0].error).toMatchObject({ code: 'provider/timeout' });
    expect(result.steps[0].attempts).toBe(1);
    expect(result.steps[1].error).toBeUndefined();
    expect(result.steps[2]).toMatchObject({ attempts: 0, error: { code: 'run/aborted', message: 'Not started: another step failed.' } });
    expect(result.answer).toBe(result.steps[1].output); // the last non-empty response
    expect(result.final).toBe('');
  });

  it('passes maxTokens and prices each step from its usage', async () => {
    const priced = worker('p', 0, { price: { input: 2, output: 4 } });
    const result = await executeWorkflow(workflow([]), { task, pool: [priced], options: { maxTokens: 7 } });
    const step = result.steps[0];
    expect(step.usage.output).toBe(7);
    expect(step.costUsd).toBeCloseTo((step.usage.input * 2 + 7 * 4) / 1e6, 12);
  });

  it('does not make a call that could pass the budget, and records why', async () => {
    const priced = worker('p', 0, { price: { input: 1, output: 1000 } });
    const events: RunEvent[] = [];
    const result = await executeWorkflow(workflow([]), {
      task,
      pool: [priced],
      budget: new BudgetLedger(0.001), // 4096 output tokens at $1000/M could cost ~$4
      onEvent: (e) => events.push(e),
    });
    expect(result.steps[0].error?.code).toBe('run/budget');
    expect(result.steps[0].attempts).toBe(0);
    expect(events.some((e) => e.type === 'step-started')).toBe(false);
  });
});

describe('executeWorkflow over a network worker', () => {
  let server: FakeProviderServer;
  beforeAll(async () => {
    server = await startFakeProviderServer();
  });
  afterAll(() => server.close());
  const openai = () =>
    createOpenAIWorker(
      { id: 'gpt', provider: 'openai', model: 'gpt-4.1', baseUrl: `${server.url}/v1`, price: { input: 1, output: 1 } },
      { apiKey: 'sk-test', retry: { baseDelayMs: 1, maxDelayMs: 2 } },
    );

  it('keeps the text a broken-off stream had shown on its failed step, and takes no answer from it', async () => {
    server.script({ text: 'The answer is 4', cutAfterChunks: 3 });
    const result = await executeWorkflow(workflow([]), { task, pool: [openai()], onEvent: () => {} });
    expect(result.steps[0]).toMatchObject({ output: 'The answer is ', costUsd: null, attempts: 1, error: { code: 'provider/network' } });
    expect({ final: result.final, answer: result.answer }).toEqual({ final: '', answer: '' });
  });

  it('asks a cut stream again when the run says nobody watches the steps stream', async () => {
    server.script({ text: 'The answer is 4', cutAfterChunks: 3 }, { text: 'The answer is 42.' });
    const result = await executeWorkflow(workflow([]), { task, pool: [openai()], options: { retryCutStreams: true } });
    expect(result.steps[0]).toMatchObject({ output: 'The answer is 42.', attempts: 2 });
    expect(result.steps[0].error).toBeUndefined();
    expect(result.final).toBe('The answer is 42.');
  });
});

describe('executeWorkflow through a response cache', () => {
  it('records a step served from the response cache and charges the budget for the call once', async () => {
    const priced = worker('a', 5, { price: { input: 1, output: 2 } });
    const pool = [new ResponseCache().wrap(priced)];
    const same = { worker: 0, subtask: 'Solve it.', access: [] as Access };
    const budget = new BudgetLedger(1);
    const result = await executeWorkflow({ steps: [same, same] }, { task, pool, budget });
    expect(result.steps.map((s) => s.fromCache ?? false)).toEqual([false, true]);
    expect(result.steps[1]).toMatchObject({ output: result.steps[0].output, costUsd: result.steps[0].costUsd, attempts: 0 });
    expect(result.steps[0].costUsd).toBeGreaterThan(0);
    expect(budget.spentUsd).toBeCloseTo(result.steps[0].costUsd!, 15);
  });
});

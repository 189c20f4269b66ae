/**
 * Fallbacks: a step whose worker's provider still fails after its retries runs on the worker its spec names,
 * over a real HTTP server speaking OpenAI's and Anthropic's wire formats; a refused key does not fall back.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { BudgetLedger, executeWorkflow, type RunEvent } from '../../../../src/core/orchestra/index.ts';
import { validateEpisode } from '../../../../src/core/episodes/index.ts';
import { createAnthropicWorker } from '../../../../src/core/providers/anthropic/anthropic-chat-model.ts';
import { createOpenAIWorker } from '../../../../src/core/providers/openai/openai-chat-model.ts';
import type { WorkerSpec } from '../../../../src/core/providers/types.ts';
import type { Task } from '../../../../src/core/task.ts';
import { makeEpisodes } from '../../../support/episode-factory.ts';
import { startFakeProviderServer, type FakeProviderServer } from '../../../support/fake-provider-server.ts';

const task: Task = { question: 'What is 6 * 7?', answer: '42', kind: 'number' };
const oneStep = { steps: [{ worker: 0, subtask: 'Solve it.', access: [] as [] }] };
const RETRY = { attempts: 2, baseDelayMs: 1, maxDelayMs: 2 };

let server: FakeProviderServer;
beforeAll(async () => {
  server = await startFakeProviderServer();
});
afterEach(() => server.reset());
afterAll(() => server.close());

const gpt = (extra: Partial<WorkerSpec> = {}) =>
  createOpenAIWorker(
    { id: 'gpt', provider: 'openai', model: 'gpt-4.1', baseUrl: `${server.url}/v1`, price: { input: 2, output: 8 }, fallback: 'claude', ...extra },
    { apiKey: 'sk-test', retry: RETRY },
  );
const claude = (extra: Partial<WorkerSpec> = {}) =>
  createAnthropicWorker(
    { id: 'claude', provider: 'anthropic', model: 'claude-sonnet-4-5', baseUrl: `${server.url}/v1`, price: { input: 3, output: 15 }, ...extra },
    { apiKey: 'sk-ant-test', retry: RETRY },
  );

describe('a step whose provider is down', () => {
  it('runs on its fallback after a 503 outlasts the retries, and records both calls and both costs', async () => {
    server.scriptModel('gpt-4.1', { status: 503 }, { status: 503 });
    server.scriptModel('claude-sonnet-4-5', { text: 'It is 42.', usage: { input: 100, output: 10 } });
    const events: RunEvent[] = [];
    const result = await executeWorkflow(oneStep, { task, pool: [gpt(), claude()], onEvent: (e) => events.push(e) });
    const step = result.steps[0];
    expect(server.requests.filter((r) => r.method === 'POST').map((r) => r.model)).toEqual(['gpt-4.1', 'gpt-4.1', 'claude-sonnet-4-5']);
    expect(step).toMatchObject({ worker: 1, workerId: 'claude', output: 'It is 42.', attempts: 1, usage: { input: 100, output: 10 } });
    expect(step.costUsd).toBeCloseTo((100 * 3 + 10 * 15) / 1e6, 12);
    expect(step.error).toBeUndefined();
    expect(step.fallback?.from).toMatchObject({ worker: 0, workerId: 'gpt', attempts: 2, costUsd: null, error: { code: 'provider/server' } });
    expect(result.final).toBe('It is 42.');
    expect(events.filter((e) => e.type === 'step-started').length).toBe(2);
    expect(events.at(-1)).toMatchObject({ type: 'step-done', step: { workerId: 'claude' } });
  });

  it('falls back on a 429 that outlasts the retries, and the run budget holds both calls', async () => {
    server.scriptModel('gpt-4.1', { status: 429 }, { status: 429 });
    server.scriptModel('claude-sonnet-4-5', { text: 'It is 42.' });
    const budget = new BudgetLedger(1);
    const result = await executeWorkflow(oneStep, { task, pool: [gpt(), claude()], budget });
    expect(result.steps[0].fallback?.from.error.code).toBe('provider/rate-limit');
    expect(result.steps[0].workerId).toBe('claude');
    // The failed call's worst case stays reserved (its spending is unknown), so the budget counts more than the answer.
    expect(budget.spentUsd).toBeGreaterThan(result.steps[0].costUsd!);
  });

  it('does not fall back when the key is refused (401): that is the user to fix', async () => {
    server.scriptModel('gpt-4.1', { status: 401 });
    const result = await executeWorkflow(oneStep, { task, pool: [gpt(), claude()] });
    expect(result.steps[0]).toMatchObject({ workerId: 'gpt', error: { code: 'provider/auth' } });
    expect(result.steps[0].fallback).toBeUndefined();
    expect(server.requests.filter((r) => r.method === 'POST').map((r) => r.model)).toEqual(['gpt-4.1']);
  });

  it("tries a fallback's own fallback never, so two workers naming each other cannot loop", async () => {
    server.scriptModel('gpt-4.1', { status: 503 }, { status: 503 });
    server.scriptModel('claude-sonnet-4-5', { status: 503 }, { status: 503 });
    const result = await executeWorkflow(oneStep, { task, pool: [gpt(), claude({ fallback: 'gpt' })] });
    expect(server.requests.filter((r) => r.method === 'POST').length).toBe(4);
    expect(result.steps[0]).toMatchObject({ workerId: 'claude', error: { code: 'provider/server' }, fallback: { from: { workerId: 'gpt' } } });
  });

  it('keeps a fallback record valid in a stored episode, and episodes without one still validate', async () => {
    server.scriptModel('gpt-4.1', { status: 503 }, { status: 503 });
    server.scriptModel('claude-sonnet-4-5', { text: 'It is 42.' });
    const result = await executeWorkflow(oneStep, { task, pool: [gpt(), claude()] });
    const [plain] = makeEpisodes(1);
    expect(validateEpisode(plain).ok).toBe(true);
    expect(validateEpisode({ ...plain, steps: result.steps })).toEqual({ ok: true, episode: expect.anything() });
    const broken = { ...plain, steps: [{ ...result.steps[0], fallback: { from: { ...result.steps[0].fallback!.from, attempts: -1 } } }] };
    expect(validateEpisode(broken)).toMatchObject({ ok: false, message: expect.stringContaining('steps[0].fallback.from.attempts') });
  });
});

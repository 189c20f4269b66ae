/**
 * Spending limits over time: the ledger in IndexedDB (fake-indexeddb), shared by two connections as two tabs
 * share it, and the guard that checks the day and month caps before each paid call, over a real HTTP server
 * speaking OpenAI's wire format.
 */
import 'fake-indexeddb/auto';
import { IDBFactory, IDBKeyRange } from 'fake-indexeddb';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { BatonError } from '../../../../src/core/errors/index.ts';
import { createFixedConductor, IdbSpendingStore, localDay, runEpisode, SpendingGuard } from '../../../../src/core/orchestra/index.ts';
import { createOpenAIWorker } from '../../../../src/core/providers/openai/openai-chat-model.ts';
import type { WorkerSpec } from '../../../../src/core/providers/types.ts';
import { createSimulatedWorker } from '../../../../src/core/providers/simulated/index.ts';
import { startFakeProviderServer, type FakeProviderServer } from '../../../support/fake-provider-server.ts';

const open = (factory: IDBFactory) => IdbSpendingStore.open(factory, IDBKeyRange);
/** A raw IndexedDB request's result. */
const result = <T>(r: IDBRequest<T>) =>
  new Promise<T>((resolve, reject) => {
    r.onsuccess = () => resolve(r.result);
    r.onerror = () => reject(r.error);
  });
const gptSpec: WorkerSpec = { id: 'gpt', provider: 'openai', model: 'gpt-4.1', label: 'GPT', price: { input: 2, output: 8 } };

describe('the spending ledger', () => {
  it('adds up each worker per local day, a day and its month, and two connections see the same rows', async () => {
    const factory = new IDBFactory();
    const [tab1, tab2] = [await open(factory), await open(factory)];
    await tab1.add('2026-12-02', gptSpec, 0.5);
    await tab1.add('2026-12-03', gptSpec, 0.25);
    await tab2.add('2026-12-03', gptSpec, 0.125);
    await tab2.add('2026-12-03', { ...gptSpec, id: 'claude', label: undefined }, null);
    await tab1.add('2026-11-30', gptSpec, 4);
    expect(await tab2.snapshot('2026-12-03')).toEqual({ limits: { dayUsd: null, monthUsd: null }, dayUsd: 0.375, monthUsd: 0.875 });
    expect(await tab1.rows('2026-12-03', '2026-12-03')).toEqual([
      { day: '2026-12-03', workerId: 'claude', name: '"claude"', usd: 0, calls: 1 },
      { day: '2026-12-03', workerId: 'gpt', name: '"GPT" (gpt)', usd: 0.375, calls: 2 },
    ]);
    expect((await tab1.rows('2026-11-01', '2026-12-31')).map((r) => r.day)).toEqual(['2026-11-30', '2026-12-02', '2026-12-03', '2026-12-03']);
  });

  it('keeps the caps for every connection, and reads anything but a positive number as no cap', async () => {
    const factory = new IDBFactory();
    await (await open(factory)).setLimits({ dayUsd: 1.5, monthUsd: null });
    expect(await (await open(factory)).limits()).toEqual({ dayUsd: 1.5, monthUsd: null });
    await (await open(factory)).setLimits({ dayUsd: -1, monthUsd: Number.NaN });
    expect((await (await open(factory)).snapshot('2026-12-03')).limits).toEqual({ dayUsd: null, monthUsd: null });
  });

  it('reads and adds to a ledger as earlier versions wrote it, and writes rows in that same layout', async () => {
    // The database exactly as the first release made it, with raw IndexedDB calls: version 1, two stores keyed by a field.
    const factory = new IDBFactory();
    const opening = factory.open('baton-spending', 1);
    opening.onupgradeneeded = () => {
      opening.result.createObjectStore('days', { keyPath: 'key' });
      opening.result.createObjectStore('limits', { keyPath: 'id' });
    };
    const old = await result(opening);
    const tx = old.transaction(['days', 'limits'], 'readwrite');
    tx.objectStore('days').put({ key: '2026-12-03|gpt', day: '2026-12-03', workerId: 'gpt', name: '"GPT" (gpt)', usd: 0.25, calls: 2 });
    tx.objectStore('limits').put({ id: 'limits', dayUsd: 2, monthUsd: null });
    await new Promise((resolve) => (tx.oncomplete = resolve));
    old.close();

    const store = await open(factory);
    expect(await store.snapshot('2026-12-03')).toEqual({ limits: { dayUsd: 2, monthUsd: null }, dayUsd: 0.25, monthUsd: 0.25 });
    await store.add('2026-12-03', gptSpec, 0.5);
    store.close();

    const again = await result(factory.open('baton-spending', 1));
    expect(await result(again.transaction('days').objectStore('days').getAll())).toEqual([
      { key: '2026-12-03|gpt', day: '2026-12-03', workerId: 'gpt', name: '"GPT" (gpt)', usd: 0.75, calls: 3 },
    ]);
    again.close();
  });

  it('names the local calendar day', () => {
    expect(localDay(new Date(2026, 0, 5, 23, 59))).toBe('2026-01-05');
  });
});

describe('the spending guard', () => {
  let server: FakeProviderServer;
  beforeAll(async () => {
    server = await startFakeProviderServer();
  });
  afterEach(() => server.reset());
  afterAll(() => server.close());

  const now = () => new Date(2026, 11, 3, 12);
  const gpt = (spec: Partial<WorkerSpec> = {}) =>
    createOpenAIWorker({ ...gptSpec, baseUrl: `${server.url}/v1`, maxTokens: 100, ...spec }, { apiKey: 'sk-test', retry: { attempts: 1 } });
  const ask = { messages: [{ role: 'user' as const, content: 'x'.repeat(400) }], maxTokens: 100 };
  // 100 input tokens at $2/M and 100 output tokens at $8/M.
  const WORST = (100 * 2 + 100 * 8) / 1e6;

  it("records each paid call's cost in the ledger as it ends, with no caps set", async () => {
    const store = await open(new IDBFactory());
    const guarded = new SpendingGuard(store, now).wrap(gpt());
    server.script({ text: 'ok', usage: { input: 50, output: 10 } });
    await guarded.call(ask);
    expect(await store.rows('2026-12-03', '2026-12-03')).toEqual([
      { day: '2026-12-03', workerId: 'gpt', name: '"GPT" (gpt)', usd: (50 * 2 + 10 * 8) / 1e6, calls: 1 },
    ]);
  });

  it('refuses a call whose worst case would pass the day cap, before sending it, saying which cap and what to do', async () => {
    const store = await open(new IDBFactory());
    await store.setLimits({ dayUsd: 0.01, monthUsd: null });
    await store.add('2026-12-03', gptSpec, 0.01 - WORST / 2);
    const guarded = new SpendingGuard(store, now).wrap(gpt());
    const error = await guarded.call(ask).catch((e: unknown) => e);
    expect(BatonError.is(error, 'run/budget')).toBe(true);
    expect((error as BatonError).message).toMatch(
      /^Stopped by today's spending limit of \$0\.01: .* could cost up to \$0\.001\. .*Settings page, or wait until tomorrow\.$/,
    );
    expect((error as BatonError).data).toMatchObject({ attempts: 0, capUsd: 0.01 });
    expect(server.requests.length).toBe(0);
    // Yesterday's spending does not count against today's cap, only against the month's.
    const tomorrow = new SpendingGuard(store, () => new Date(2026, 11, 4, 9)).wrap(gpt());
    server.script({ text: 'ok' });
    await expect(tomorrow.call(ask)).resolves.toMatchObject({ text: 'ok' });
  });

  it("refuses past the month's cap, and counts the calls in flight in this thread", async () => {
    const store = await open(new IDBFactory());
    await store.setLimits({ dayUsd: null, monthUsd: WORST * 1.5 });
    const guard = new SpendingGuard(store, now);
    server.script({ text: 'slow', firstByteDelayMs: 300 });
    const first = guard.wrap(gpt()).call(ask);
    await new Promise((r) => setTimeout(r, 50));
    await expect(guard.wrap(gpt()).call(ask)).rejects.toThrow(/this month's spending limit/);
    await first;
    expect(server.requests.filter((r) => r.method === 'POST').length).toBe(1);
  });

  it('refuses a paid worker without a price while a cap is set, and lets simulated workers by untouched', async () => {
    const store = await open(new IDBFactory());
    await store.setLimits({ dayUsd: 1, monthUsd: null });
    const guard = new SpendingGuard(store, now);
    await expect(guard.wrap(gpt({ price: undefined })).call(ask)).rejects.toThrow(/has no price, so the spending limits/);
    const simulated = createSimulatedWorker({
      id: 'sim',
      provider: 'simulated',
      model: 's',
      price: { input: 1e6, output: 1e6 },
      simulated: { skill: { default: 1 } },
    });
    expect(guard.wrap(simulated)).toBe(simulated);
  });

  it('ends a run over a capped worker with status budget, its error said on the step', async () => {
    const store = await open(new IDBFactory());
    await store.setLimits({ dayUsd: WORST / 2, monthUsd: null });
    const episode = await runEpisode({
      task: { question: 'What is 2 + 2?', answer: '4', kind: 'number' },
      pool: [new SpendingGuard(store, now).wrap(gpt())],
      conductor: createFixedConductor('model_id = [0]\nsubtasks = ["Solve it."]\naccess_list = [[]]'),
    });
    expect(episode.status).toBe('budget');
    // Never sent, so it cost nothing: the run's dollars stay known.
    expect(episode.steps[0]).toMatchObject({
      attempts: 0,
      costUsd: 0,
      error: { code: 'run/budget', message: expect.stringContaining("today's spending limit") },
    });
    expect(episode.totals.costUsd).toBe(0);
    expect(server.requests.length).toBe(0);
  });
});

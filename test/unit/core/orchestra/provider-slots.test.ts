import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { DEFAULT_PROVIDER_CONCURRENCY, limitPerProvider, parseProviderConcurrency, providerConcurrencyText } from '../../../../src/core/orchestra/index.ts';
import { createWorkerModel } from '../../../../src/core/providers/create-worker.ts';
import { createSimulatedWorker } from '../../../../src/core/providers/simulated/index.ts';
import type { ProviderName, WorkerModel } from '../../../../src/core/providers/index.ts';
import { peakConcurrency, startFakeProviderServer, type FakeProviderServer } from '../../../support/fake-provider-server.ts';

let server: FakeProviderServer;
beforeAll(async () => void (server = await startFakeProviderServer({ fallback: { text: 'ok', firstByteDelayMs: 40 } })));
afterAll(() => server.close());
beforeEach(() => server.reset());

const network = (id: string, provider: ProviderName): WorkerModel =>
  createWorkerModel({ id, provider, model: id, baseUrl: `${server.url}/v1` }, { apiKey: 'k', retry: { attempts: 1 } });

const posts = (model: string) => server.requests.filter((r) => r.method === 'POST' && r.model === model);

describe('limitPerProvider', () => {
  it('holds each provider to its own cap, shared by its workers, and completes every call', async () => {
    const pool = limitPerProvider([network('a1', 'openai'), network('a2', 'openai'), network('b', 'anthropic')], { openai: 2, anthropic: 3 });
    const call = (w: WorkerModel, i: number) => w.call({ messages: [{ role: 'user', content: `q${i}` }], maxTokens: 20 });
    const results = await Promise.all([
      ...Array.from({ length: 5 }, (_, i) => [call(pool[0], i), call(pool[1], i)]).flat(),
      ...Array.from({ length: 9 }, (_, i) => call(pool[2], i)),
    ]);
    await server.settled();
    expect(results.every((r) => r.text === 'ok')).toBe(true);
    const openai = [...posts('a1'), ...posts('a2')];
    expect(openai).toHaveLength(10);
    expect(posts('b')).toHaveLength(9);
    expect(server.requests.every((r) => r.outcome === 'completed')).toBe(true);
    expect(peakConcurrency(openai)).toBe(2);
    expect(peakConcurrency(posts('b'))).toBe(3);
    // The two caps are separate: at some moment more than either one ran.
    expect(peakConcurrency(server.requests)).toBeGreaterThan(3);
  });

  it('caps network providers at 8 by default and leaves simulated workers uncapped', async () => {
    expect(DEFAULT_PROVIDER_CONCURRENCY).toMatchObject({ openai: 8, anthropic: 8, google: 8, 'openai-compatible': 8 });
    const sim = createSimulatedWorker({ id: 's', provider: 'simulated', model: 's', simulated: { skill: { default: 1 } } });
    const [w, s] = limitPerProvider([network('c', 'openai-compatible'), sim]);
    expect(s).toBe(sim);
    await Promise.all(Array.from({ length: 12 }, (_, i) => w.call({ messages: [{ role: 'user', content: `q${i}` }], maxTokens: 20 })));
    await server.settled();
    expect(peakConcurrency(posts('c'))).toBe(8);
  });

  it('refuses an unknown provider or a cap below 1, naming it', () => {
    expect(() => limitPerProvider([], { opneai: 2 } as never)).toThrow(
      expect.objectContaining({ code: 'run/config', message: expect.stringMatching(/No provider "opneai".*openai, anthropic/) }),
    );
    expect(() => limitPerProvider([], { google: 0 })).toThrow(/concurrency of google must be a whole number of at least 1, got 0/);
  });
});

describe('parseProviderConcurrency', () => {
  it('reads provider=N pairs, spaces and empty parts allowed, and writes them back', () => {
    expect(parseProviderConcurrency(' openai=4, anthropic = 2,,')).toEqual({ openai: 4, anthropic: 2 });
    expect(parseProviderConcurrency('')).toEqual({});
    expect(parseProviderConcurrency(providerConcurrencyText({ 'openai-compatible': 3, engine: 1 }))).toEqual({ 'openai-compatible': 3, engine: 1 });
  });

  it('names what it cannot read', () => {
    expect(() => parseProviderConcurrency('openai')).toThrow(/provider=N pairs .* got "openai"/);
    expect(() => parseProviderConcurrency('opneai=2')).toThrow(/No provider "opneai"; use one of openai, anthropic/);
    expect(() => parseProviderConcurrency('google=0')).toThrow(/google needs at least 1 call at a time, got 0/);
  });
});

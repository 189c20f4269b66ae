import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { ResponseCache } from '../../../../src/core/orchestra/index.ts';
import { createWorkerModel } from '../../../../src/core/providers/create-worker.ts';
import type { CallRequest, WorkerSpec } from '../../../../src/core/providers/index.ts';
import { startFakeProviderServer, type FakeProviderServer } from '../../../support/fake-provider-server.ts';

let server: FakeProviderServer;
beforeAll(async () => void (server = await startFakeProviderServer()));
afterAll(() => server.close());
beforeEach(() => server.reset());

const spec = (): WorkerSpec => ({ id: 'w', provider: 'openai-compatible', model: 'm', baseUrl: `${server.url}/v1`, price: { input: 1, output: 2 } });
const worker = () => createWorkerModel(spec(), { apiKey: 'k', retry: { attempts: 1, baseDelayMs: 1, maxDelayMs: 1 } });
const ask = (content: string, temperature = 0.2): CallRequest => ({ messages: [{ role: 'user', content }], maxTokens: 50, temperature });
const posts = () => server.requests.filter((r) => r.method === 'POST');

describe('ResponseCache', () => {
  it('sends identical calls once, also while the first is in flight, and marks the reused answers', async () => {
    server.script({ text: 'Paris.', usage: { input: 10, output: 3 }, firstByteDelayMs: 100 });
    const w = new ResponseCache().wrap(worker());
    const results = await Promise.all([1, 2, 3].map(() => w.call(ask('Capital of France?'))));
    const later = await w.call(ask('Capital of France?'));
    expect(posts()).toHaveLength(1);
    expect([...results, later].map((r) => r.text)).toEqual(['Paris.', 'Paris.', 'Paris.', 'Paris.']);
    expect([...results, later].map((r) => r.fromCache ?? false)).toEqual([false, true, true, true]);
    // The reused answers keep the usage (what the workflow asked for) but made no request.
    for (const r of [...results.slice(1), later]) expect(r).toMatchObject({ usage: results[0].usage, attempts: 0 });
  });

  it('sends calls that differ in messages, temperature or output cap, and keeps two caches apart', async () => {
    const w = new ResponseCache().wrap(worker());
    await w.call(ask('a'));
    await w.call(ask('b'));
    await w.call(ask('a', 0.7));
    await w.call({ ...ask('a'), maxTokens: 51 });
    await new ResponseCache().wrap(worker()).call(ask('a'));
    expect(posts()).toHaveLength(5);
  });

  it('keeps no failure: the next identical call asks again', async () => {
    server.script({ status: 400, errorMessage: 'bad request' }, { text: 'fine' });
    const w = new ResponseCache().wrap(worker());
    await expect(w.call(ask('x'))).rejects.toMatchObject({ code: expect.stringMatching(/^provider\//) });
    expect(await w.call(ask('x'))).toMatchObject({ text: 'fine' });
    expect(posts()).toHaveLength(2);
  });

  it('forgets the oldest responses past maxEntries', async () => {
    const w = new ResponseCache(2).wrap(worker());
    for (const q of ['a', 'b', 'c', 'a']) await w.call(ask(q));
    expect(posts().map((r) => r.body.messages.at(-1).content)).toEqual(['a', 'b', 'c', 'a']);
  });
});

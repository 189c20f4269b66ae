/**
 * Faults every network worker shares (retries, timeout, abort, broken streams, network and CORS),
 * through the OpenAI worker against the fake server: the handling lives in shared/sdk-worker.ts.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createOpenAIWorker } from '../../../../../src/core/providers/openai/openai-chat-model.ts';
import type { NetworkWorkerContext } from '../../../../../src/core/providers/common/sdk-worker.ts';
import type { WorkerSpec } from '../../../../../src/core/providers/types.ts';
import { startFakeProviderServer, type FakeProviderServer } from '../../../../support/fake-provider-server.ts';
import { expectSecretAbsent, rejectionOf } from './secret-check.ts';

const KEY = 'sk-fault-test-KEY-55e1c0';
let server: FakeProviderServer;
let spec: WorkerSpec;

beforeAll(async () => {
  server = await startFakeProviderServer();
});
afterAll(() => server.close());
beforeEach(() => {
  server.reset();
  spec = { id: 'w1', provider: 'openai', model: 'gpt-4.1', baseUrl: `${server.url}/v1` };
});

const hi = [{ role: 'user' as const, content: 'hi' }];
const worker = (context: Partial<NetworkWorkerContext> = {}, s: WorkerSpec = spec) =>
  createOpenAIWorker(s, { apiKey: KEY, keyName: 'OPENAI_API_KEY', retry: { baseDelayMs: 1, maxDelayMs: 5 }, ...context });

describe('retries', () => {
  it('waits out retry-after on 429, as the request times show', async () => {
    server.script({ status: 429, headers: { 'retry-after': '1' } }, { text: 'after the wait' });
    const result = await worker().call({ messages: hi });
    expect(result).toMatchObject({ text: 'after the wait', attempts: 2 });
    const [first, second] = server.requests;
    // Backoff alone would be a few ms here; only the 1 s retry-after explains this gap.
    expect(second.at - first.at).toBeGreaterThanOrEqual(950);
  });

  it('retries a 500 and succeeds on the second attempt', async () => {
    server.script({ status: 500 }, { text: 'fine now' });
    const deltas: string[] = [];
    const result = await worker().call({ messages: hi, onDelta: (d) => deltas.push(d) });
    expect(result).toMatchObject({ text: 'fine now', attempts: 2 });
    expect(deltas.join('')).toBe('fine now');
    expect(server.requests).toHaveLength(2);
  });

  it('gives up after the configured attempts with a server error saying so', async () => {
    server.script({ status: 503 }, { status: 503 }, { status: 503 });
    const error = await rejectionOf(worker({ retry: { attempts: 3, baseDelayMs: 1, maxDelayMs: 2 } }).call({ messages: hi }));
    expect(error.code).toBe('provider/server');
    expect(error.isRetryable).toBe(true);
    expect(error.data).toMatchObject({ status: 503, attempts: 3 });
    expect(server.requests).toHaveLength(3);
  });

  it('retries a non-streamed body cut half-way', async () => {
    server.script({ text: 'lost', cutAfterChunks: 0 }, { text: 'whole' });
    const result = await worker().call({ messages: hi });
    expect(result).toMatchObject({ text: 'whole', attempts: 2 });
    expect(server.requests.map((r) => r.outcome)).toEqual(['cut', 'completed']);
  });

  it('does not retry a stream cut after text was shown, and reports what was shown', async () => {
    server.script({ text: 'one two three four', cutAfterChunks: 2 });
    const deltas: string[] = [];
    const error = await rejectionOf(worker().call({ messages: hi, onDelta: (d) => deltas.push(d) }));
    expect(error.code).toBe('provider/network');
    expect(error.isRetryable).toBe(true);
    expect(error.data).toMatchObject({ partialText: 'one two ', attempts: 1 });
    expect(deltas).toEqual(['one ', 'two ']);
    expect(server.requests).toHaveLength(1);
    expect(server.requests[0].outcome).toBe('cut');
  });
});

describe('streams cut part-way where nobody watches them (retryCutStreams)', () => {
  it('asks again, like after a dropped connection', async () => {
    server.script({ text: 'one two three four', cutAfterChunks: 2 }, { text: 'the whole answer' });
    const result = await worker().call({ messages: hi, onDelta: () => {}, retryCutStreams: true });
    expect(result).toMatchObject({ text: 'the whole answer', attempts: 2 });
    expect(server.requests.map((r) => r.outcome)).toEqual(['cut', 'completed']);
  });

  it('reports the text of the last attempt once the attempts run out', async () => {
    server.script({ text: 'a b c', cutAfterChunks: 1 }, { text: 'x y z', cutAfterChunks: 2 });
    const error = await rejectionOf(
      worker({ retry: { attempts: 2, baseDelayMs: 1, maxDelayMs: 2 } }).call({ messages: hi, onDelta: () => {}, retryCutStreams: true }),
    );
    expect(error.code).toBe('provider/network');
    expect(error.data).toMatchObject({ partialText: 'x y ', attempts: 2 });
  });
});

describe('empty answers', () => {
  it('fails a 200 stream that brings no text, once, whether streamed or not', async () => {
    server.script({ chunks: [], usage: { input: 12, output: 0 } }, { text: ' \n ' });
    const streamed = await rejectionOf(worker().call({ messages: hi, onDelta: () => {} }));
    const whole = await rejectionOf(worker().call({ messages: hi }));
    for (const error of [streamed, whole]) {
      expect(error.code).toBe('provider/empty-answer');
      expect(error.message).toBe("OpenAI model 'gpt-4.1' answered with no text. Try again; if it keeps happening, check the model name and the baseUrl.");
      expect(error.data).toMatchObject({ attempts: 1, finishReason: 'stop' });
    }
    expect(server.requests.map((r) => r.stream)).toEqual([true, false]);
  });

  it('says to allow more output tokens when they ran out before any text', async () => {
    server.script({ chunks: [], finish: 'length', usage: { input: 12, output: 64, reasoning: 64 } });
    const error = await rejectionOf(worker().call({ messages: hi, onDelta: () => {} }));
    expect(error.code).toBe('provider/empty-answer');
    expect(error.message).toMatch(/^OpenAI model 'gpt-4\.1' used all its output tokens without writing an answer .*Raise the worker's max output tokens/);
  });
});

describe('timeout and abort', () => {
  it('turns a slow first byte past the timeout into provider/timeout and hangs up', async () => {
    server.script({ firstByteDelayMs: 5_000, text: 'too late' });
    const error = await rejectionOf(worker().call({ messages: hi, timeoutMs: 100 }));
    expect(error.code).toBe('provider/timeout');
    await server.settled();
    expect(server.requests[0].outcome).toBe('client-closed');
  });

  it('cancels the HTTP request itself when aborted mid-stream', async () => {
    server.script({ text: 'a b c d e f g h i j k l m n o p', chunkDelayMs: 20 });
    const controller = new AbortController();
    const deltas: string[] = [];
    const call = worker().call({
      messages: hi,
      signal: controller.signal,
      onDelta: (d) => {
        deltas.push(d);
        if (deltas.length === 2) controller.abort();
      },
    });
    const error = await rejectionOf(call);
    expect(error.code).toBe('run/aborted');
    expect(deltas).toEqual(['a ', 'b ']);
    await server.settled();
    expect(server.requests).toHaveLength(1);
    expect(server.requests[0].outcome).toBe('client-closed');
  });

  it('stops during a backoff wait when aborted', async () => {
    server.script({ status: 429, headers: { 'retry-after': '30' } });
    const controller = new AbortController();
    const call = worker().call({ messages: hi, signal: controller.signal });
    await server.settled();
    while (server.requests.length === 0) await new Promise((r) => setTimeout(r, 5));
    controller.abort();
    const error = await rejectionOf(call);
    expect(error.code).toBe('run/aborted');
    expect(server.requests).toHaveLength(1);
  });
});

describe('unreachable providers', () => {
  it('reports a refused connection as a network error after retrying', async () => {
    const closed = await startFakeProviderServer();
    await closed.close();
    const error = await rejectionOf(worker({}, { ...spec, baseUrl: `${closed.url}/v1` }).call({ messages: hi }));
    expect(error.code).toBe('provider/network');
    expect(error.message).toMatch(/^Could not reach OpenAI .*ECONNREFUSED/);
    expect(error.data.attempts).toBe(5);
  });

  it('explains a browser CORS refusal (TypeError: Failed to fetch) and does not retry it', async () => {
    let calls = 0;
    const browserFetch = (async () => {
      calls++;
      throw new TypeError('Failed to fetch');
    }) as typeof fetch;
    const error = await rejectionOf(worker({ fetch: browserFetch }).call({ messages: hi }));
    expect(error.code).toBe('provider/cors');
    expect(error.message).toContain('blocks calls from web pages (CORS)');
    expect(error.message).toContain('OpenRouter');
    expect(calls).toBe(1);
  });
});

describe('the key stays secret', () => {
  it('appears in no error of any fault', async () => {
    const faults = [
      { status: 401, errorMessage: `Incorrect API key provided: ${KEY}` },
      { status: 404, errorMessage: `model not found for key ${KEY}` },
      { status: 400, errorMessage: `bad request from ${KEY}` },
      { status: 500, errorMessage: `oops ${KEY}` },
      { firstByteDelayMs: 1_000 },
    ];
    for (const fault of faults) {
      server.reset();
      server.script(fault, fault, fault, fault, fault);
      const error = await rejectionOf(worker().call({ messages: hi, timeoutMs: 200 }));
      expect(error.code).toMatch(/^provider\//);
      expectSecretAbsent(error, KEY);
      await server.settled();
    }
  });
});

import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createAnthropicWorker } from '../../../../../src/core/providers/anthropic/anthropic-chat-model.ts';
import type { WorkerSpec } from '../../../../../src/core/providers/types.ts';
import { costUsd, priceFor } from '../../../../../src/core/pricing/index.ts';
import { startFakeProviderServer, type FakeProviderServer } from '../../../../support/fake-provider-server.ts';
import { expectSecretAbsent, rejectionOf } from '../common/secret-check.ts';

const KEY = 'sk-ant-test-KEY-0c9d2e';
let server: FakeProviderServer;
let spec: WorkerSpec;

beforeAll(async () => {
  server = await startFakeProviderServer({ acceptKeys: [KEY], knownModels: ['claude-sonnet-4-5', 'claude-haiku-4-5'] });
});
afterAll(() => server.close());
beforeEach(() => {
  server.reset();
  spec = { id: 'w2', provider: 'anthropic', model: 'claude-sonnet-4-5', baseUrl: `${server.url}/v1`, maxTokens: 400 };
});

const worker = (s: WorkerSpec = spec, apiKey = KEY) =>
  createAnthropicWorker(s, { apiKey, keyName: 'ANTHROPIC_API_KEY', retry: { baseDelayMs: 1, maxDelayMs: 5 } });

describe('Anthropic Messages worker', () => {
  it('streams the message events and counts cache reads inside input', async () => {
    server.script({ text: 'Forty two.', usage: { input: 1000, output: 12, cached: 800 } });
    const deltas: string[] = [];
    const result = await worker().call({
      messages: [
        { role: 'system', content: 'Be brief.' },
        { role: 'user', content: 'What is 6 x 7?' },
      ],
      onDelta: (d) => deltas.push(d),
    });
    expect(deltas).toEqual(['Forty ', 'two.']);
    expect(result).toMatchObject({ text: 'Forty two.', usage: { input: 1000, output: 12, cached: 800 }, attempts: 1, finishReason: 'stop' });
    // Sonnet 4.5: 200 x 3 + 800 x 0.30 + 12 x 15 dollars per million
    expect(costUsd(result.usage, priceFor('claude-sonnet-4-5-20250929'))).toBeCloseTo((200 * 3 + 800 * 0.3 + 12 * 15) / 1e6, 12);
  });

  it('sends x-api-key, the version and the browser-access header, and the system prompt apart', async () => {
    server.script({ text: 'ok' });
    await worker().call({
      messages: [
        { role: 'system', content: 'Be brief.' },
        { role: 'user', content: 'hi' },
      ],
      temperature: 0.5,
    });
    const [request] = server.requests;
    expect(request.path).toBe('/v1/messages');
    expect(request.headers['x-api-key']).toBe(KEY);
    expect(request.headers['anthropic-version']).toBe('2023-06-01');
    expect(request.headers['anthropic-dangerous-direct-browser-access']).toBe('true');
    expect(request.body).toMatchObject({
      model: 'claude-sonnet-4-5',
      max_tokens: 400,
      temperature: 0.5,
      system: [{ type: 'text', text: 'Be brief.' }],
      messages: [{ role: 'user', content: [{ type: 'text', text: 'hi' }] }],
    });
    expect(request.body.thinking).toBeUndefined();
  });

  it('continues a prefill (trailing assistant message, trailing space trimmed) when thinking is off', async () => {
    server.script({ text: ' 42.' });
    const w = worker();
    expect(w.supportsPrefill).toBe(true);
    const result = await w.call({
      messages: [
        { role: 'user', content: 'What is 6 x 7?' },
        { role: 'assistant', content: 'The answer is ' },
      ],
    });
    expect(result.text).toBe(' 42.');
    expect(server.requests[0].body.messages.at(-1)).toEqual({ role: 'assistant', content: [{ type: 'text', text: 'The answer is' }] });
  });

  it('turns on extended thinking from a numeric budget, adds it to max_tokens and takes no prefill', async () => {
    server.script({ text: 'Done.', reasoning: 'Let me think.', usage: { input: 30, output: 500 } });
    const w = worker({ ...spec, reasoning: 2000 });
    expect(w.supportsPrefill).toBe(false);
    const result = await w.call({ messages: [{ role: 'user', content: 'hi' }], onDelta: () => {} });
    expect(result.text).toBe('Done.');
    expect(server.requests[0].body).toMatchObject({ thinking: { type: 'enabled', budget_tokens: 2000 }, max_tokens: 2400 });
    const refused = await rejectionOf(
      w.call({
        messages: [
          { role: 'user', content: 'hi' },
          { role: 'assistant', content: 'Sure' },
        ],
      }),
    );
    expect(refused.code).toBe('provider/unsupported');
    expect(server.requests).toHaveLength(1);
  });

  it('reads a whole (non-streamed) message', async () => {
    server.script({ text: 'Whole reply.', usage: { input: 9, output: 3 } });
    const result = await worker({ ...spec, model: 'claude-haiku-4-5' }).call({ messages: [{ role: 'user', content: 'hi' }] });
    expect(result).toMatchObject({ text: 'Whole reply.', usage: { input: 9, output: 3 } });
    expect(server.requests[0].stream).toBe(false);
  });

  it('names ANTHROPIC_API_KEY when the key is rejected, never the key', async () => {
    const wrongKey = 'sk-ant-wrong-RECOGNISABLE-99';
    const error = await rejectionOf(worker(spec, wrongKey).call({ messages: [{ role: 'user', content: 'hi' }], onDelta: () => {} }));
    expect(error.code).toBe('provider/auth');
    expect(error.message).toBe('Anthropic rejected the key ANTHROPIC_API_KEY (401). Check it at https://console.anthropic.com/settings/keys.');
    expect(server.requests).toHaveLength(1);
    expectSecretAbsent(error, wrongKey);
  });

  it('says the model is unknown on 404', async () => {
    const error = await rejectionOf(worker({ ...spec, model: 'claude-nonexistent-1' }).call({ messages: [{ role: 'user', content: 'hi' }] }));
    expect(error.code).toBe('provider/unknown-model');
    expect(error.message).toContain("'claude-nonexistent-1'");
  });

  it('honours retry-after-ms on 529 overload', async () => {
    server.script({ status: 529, headers: { 'retry-after-ms': '300' } }, { text: 'ok' });
    const result = await worker().call({ messages: [{ role: 'user', content: 'hi' }] });
    expect(result.attempts).toBe(2);
    expect(server.requests[1].at - server.requests[0].at).toBeGreaterThanOrEqual(250);
  });

  it('retries an overloaded_error event that ends a stream before any text', async () => {
    server.script({ text: 'late', streamError: { type: 'overloaded_error', message: 'Overloaded', afterChunks: 0 } }, { text: 'Recovered.' });
    const result = await worker().call({ messages: [{ role: 'user', content: 'hi' }], onDelta: () => {} });
    expect(result).toMatchObject({ text: 'Recovered.', attempts: 2 });
  });

  it("reports an overloaded_error event after some text in Anthropic's own words, with the text kept", async () => {
    server.script({ text: 'The answer is 42.', streamError: { type: 'overloaded_error', message: 'Overloaded', afterChunks: 2 } });
    const error = await rejectionOf(worker().call({ messages: [{ role: 'user', content: 'hi' }], onDelta: () => {} }));
    expect(error.code).toBe('provider/server');
    expect(error.isRetryable).toBe(true);
    expect(error.message).toBe("Anthropic stopped sending the answer of 'claude-sonnet-4-5' after 11 characters (Overloaded). Try the step again.");
    expect(error.data.partialText).toBe('The answer ');
    expect(server.requests).toHaveLength(1);
  });
});

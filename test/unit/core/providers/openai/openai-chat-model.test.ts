import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createOpenAIWorker } from '../../../../../src/core/providers/openai/openai-chat-model.ts';
import type { WorkerSpec } from '../../../../../src/core/providers/types.ts';
import { costUsd, priceFor } from '../../../../../src/core/pricing/index.ts';
import { startFakeProviderServer, type FakeProviderServer } from '../../../../support/fake-provider-server.ts';
import { expectSecretAbsent, rejectionOf } from '../common/secret-check.ts';

const KEY = 'sk-test-openai-KEY-7f3a91';
let server: FakeProviderServer;
let spec: WorkerSpec;
const fast = { baseDelayMs: 1, maxDelayMs: 5 };

beforeAll(async () => {
  server = await startFakeProviderServer({ acceptKeys: [KEY], knownModels: ['gpt-5-mini', 'gpt-4.1'] });
});
afterAll(() => server.close());
beforeEach(() => {
  server.reset();
  spec = { id: 'w1', provider: 'openai', model: 'gpt-5-mini', baseUrl: `${server.url}/v1`, reasoning: 'low', maxTokens: 300 };
});

const worker = (s: WorkerSpec = spec, apiKey = KEY) => createOpenAIWorker(s, { apiKey, keyName: 'OPENAI_API_KEY', retry: fast });

describe('OpenAI chat completions worker', () => {
  it('streams deltas and reads usage from the include_usage chunk', async () => {
    server.script({ text: 'The answer is 42.', usage: { input: 120, output: 80, cached: 100, reasoning: 64 } });
    const deltas: string[] = [];
    const result = await worker().call({
      messages: [
        { role: 'system', content: 'Be brief.' },
        { role: 'user', content: 'What is 6 x 7?' },
      ],
      onDelta: (d) => deltas.push(d),
    });
    expect(deltas).toEqual(['The ', 'answer ', 'is ', '42.']);
    expect(result).toMatchObject({
      text: 'The answer is 42.',
      usage: { input: 120, output: 80, cached: 100, reasoning: 64 },
      attempts: 1,
      finishReason: 'stop',
    });
    // gpt-5-mini: 20 uncached x 0.25 + 100 cached x 0.025 + 80 x 2 dollars per million
    expect(costUsd(result.usage, priceFor(spec.model))).toBeCloseTo((20 * 0.25 + 100 * 0.025 + 80 * 2) / 1e6, 12);
  });

  it('sends the key as a bearer token, GPT-5 reasoning_effort and max_completion_tokens', async () => {
    server.script({ text: 'ok' });
    // GPT-5 refuses temperature: it is left out rather than sent.
    await worker().call({ messages: [{ role: 'user', content: 'hi' }], temperature: 0.7, onDelta: () => {} });
    const [request] = server.requests;
    expect(request.path).toBe('/v1/chat/completions');
    expect(request.headers.authorization).toBe(`Bearer ${KEY}`);
    expect(request.body).toEqual({
      model: 'gpt-5-mini',
      reasoning_effort: 'low',
      max_completion_tokens: 300,
      messages: [{ role: 'user', content: 'hi' }],
      stream: true,
      stream_options: { include_usage: true },
    });
  });

  it('makes one plain request when nobody listens for deltas, with the per-call limit and temperature', async () => {
    server.script({ text: 'Plain answer.', usage: { input: 7, output: 3 } });
    const result = await worker({ ...spec, model: 'gpt-4.1', reasoning: undefined }).call({
      messages: [{ role: 'user', content: 'hi' }],
      maxTokens: 50,
      temperature: 0.2,
    });
    expect(result).toMatchObject({ text: 'Plain answer.', usage: { input: 7, output: 3 }, attempts: 1 });
    expect(server.requests[0].stream).toBe(false);
    expect(server.requests[0].body).toMatchObject({ model: 'gpt-4.1', max_completion_tokens: 50, temperature: 0.2 });
    expect(server.requests[0].body.stream).toBeUndefined();
  });

  it('names the key, not its value, when OpenAI rejects it, and does not retry', async () => {
    const wrongKey = 'sk-wrong-RECOGNISABLE-a1b2c3d4';
    const error = await rejectionOf(worker(spec, wrongKey).call({ messages: [{ role: 'user', content: 'hi' }] }));
    expect(error.code).toBe('provider/auth');
    expect(error.message).toBe('OpenAI rejected the key OPENAI_API_KEY (401). Check it at https://platform.openai.com/api-keys.');
    expect(server.requests).toHaveLength(1);
    // The fake echoes the refused key in its body, as OpenAI does: it must not come through.
    expectSecretAbsent(error, wrongKey);
  });

  it('says which model is unknown (404) without retrying', async () => {
    const error = await rejectionOf(worker({ ...spec, model: 'gpt-9-turbo' }).call({ messages: [{ role: 'user', content: 'hi' }] }));
    expect(error.code).toBe('provider/unknown-model');
    expect(error.message).toContain("'gpt-9-turbo'");
    expect(server.requests).toHaveLength(1);
    expectSecretAbsent(error, KEY);
  });

  it('refuses a trailing assistant message, which chat completions cannot continue', async () => {
    const w = worker();
    expect(w.supportsPrefill).toBe(false);
    const error = await rejectionOf(
      w.call({
        messages: [
          { role: 'user', content: 'hi' },
          { role: 'assistant', content: 'The answer is' },
        ],
      }),
    );
    expect(error.code).toBe('provider/unsupported');
    expect(server.requests).toHaveLength(0);
  });

  it('asks for a key before calling when none is set', async () => {
    const error = await rejectionOf(worker(spec, '').call({ messages: [{ role: 'user', content: 'hi' }] }));
    expect(error.code).toBe('provider/auth');
    expect(error.message).toContain('OPENAI_API_KEY');
    expect(server.requests).toHaveLength(0);
  });

  it('hides a key echoed where the detail is cut short, leaving no prefix of it', async () => {
    server.script({ status: 400, errorMessage: `${'x'.repeat(290)} ${KEY}` });
    const error = await rejectionOf(worker().call({ messages: [{ role: 'user', content: 'hi' }] }));
    expect(error.code).toBe('provider/bad-request');
    expect(error.message).not.toContain(KEY.slice(0, 9));
  });

  it('does not retry a 429 insufficient_quota: waiting does not add credit', async () => {
    const body = {
      error: {
        message: 'You exceeded your current quota, please check your plan and billing details.',
        type: 'insufficient_quota',
        param: null,
        code: 'insufficient_quota',
      },
    };
    server.script({ status: 429, errorBody: body }, { text: 'never reached' });
    const error = await rejectionOf(worker().call({ messages: [{ role: 'user', content: 'hi' }] }));
    expect(error.code).toBe('provider/rate-limit');
    expect(error.isRetryable).toBe(false);
    expect(error.message).toContain('out of credit or quota');
    expect(server.requests).toHaveLength(1);
  });
});

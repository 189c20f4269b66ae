import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createOpenAICompatibleWorker } from '../../../../../src/core/providers/openai-compatible/openai-compatible-chat-model.ts';
import type { WorkerSpec } from '../../../../../src/core/providers/types.ts';
import { startFakeProviderServer, type FakeProviderServer } from '../../../../support/fake-provider-server.ts';
import { expectSecretAbsent, rejectionOf } from '../common/secret-check.ts';

let server: FakeProviderServer;
let spec: WorkerSpec;
const fast = { baseDelayMs: 1, maxDelayMs: 5 };

beforeAll(async () => {
  server = await startFakeProviderServer({ knownModels: ['qwen3:8b'] });
});
afterAll(() => server.close());
beforeEach(() => {
  server.reset();
  spec = { id: 'w4', provider: 'openai-compatible', model: 'qwen3:8b', baseUrl: `${server.url}/ollama/v1`, maxTokens: 128 };
});

describe('OpenAI-compatible worker', () => {
  it('calls a local server under its base path without any key, streaming with usage', async () => {
    server.script({ text: 'Local answer.', usage: { input: 11, output: 4 } });
    const deltas: string[] = [];
    const result = await createOpenAICompatibleWorker(spec, { retry: fast }).call({
      messages: [{ role: 'user', content: 'hi' }],
      onDelta: (d) => deltas.push(d),
    });
    expect(deltas.join('')).toBe('Local answer.');
    expect(result).toMatchObject({ text: 'Local answer.', usage: { input: 11, output: 4 }, attempts: 1 });
    const [request] = server.requests;
    expect(request.path).toBe('/ollama/v1/chat/completions');
    expect(request.headers.authorization).toBeUndefined();
    expect(request.body).toMatchObject({ model: 'qwen3:8b', max_tokens: 128, stream: true, stream_options: { include_usage: true } });
  });

  it('sends a bearer key and reasoning_effort when given, and non-streams when nobody listens', async () => {
    server.script({ text: 'ok' });
    const key = 'sk-or-test-KEY-77';
    await createOpenAICompatibleWorker({ ...spec, reasoning: 'high' }, { apiKey: key, keyName: 'MY_KEY', retry: fast }).call({
      messages: [{ role: 'user', content: 'hi' }],
    });
    expect(server.requests[0].headers.authorization).toBe(`Bearer ${key}`);
    expect(server.requests[0].body).toMatchObject({ reasoning_effort: 'high' });
    expect(server.requests[0].stream).toBe(false);
  });

  it('says a local server may not have the model loaded', async () => {
    const error = await rejectionOf(
      createOpenAICompatibleWorker({ ...spec, model: 'llama9' }, { retry: fast }).call({ messages: [{ role: 'user', content: 'hi' }] }),
    );
    expect(error.code).toBe('provider/unknown-model');
    expect(error.message).toBe(
      `The server at ${server.url} does not know the model 'llama9' (404). Check the model name, that the server has it loaded, and the baseUrl.`,
    );
  });

  it('asks for a key when a local server wants one and none was set', async () => {
    server.script({ status: 401 });
    const error = await rejectionOf(createOpenAICompatibleWorker(spec, { retry: fast }).call({ messages: [{ role: 'user', content: 'hi' }] }));
    expect(error.code).toBe('provider/auth');
    expect(error.message).toBe(
      `The server at ${server.url} refused the request as unauthorised (401). Set a key for this worker (keyEnv in the pool file, or the key settings in the app).`,
    );
  });

  it('names OPENROUTER_API_KEY for OpenRouter and hides the key', async () => {
    const key = 'sk-or-v1-RECOGNISABLE-abc';
    const openrouter: WorkerSpec = { ...spec, model: 'openai/gpt-oss-120b', baseUrl: 'https://openrouter.ai/api/v1' };
    // OpenRouter cannot be reached from tests: route its URL to the fake server through fetch.
    const toFake = ((url: string | URL | Request, init?: RequestInit) =>
      fetch(String(url).replace('https://openrouter.ai/api', server.url), init)) as typeof fetch;
    server.script({ status: 401 });
    const error = await rejectionOf(
      createOpenAICompatibleWorker(openrouter, { apiKey: key, keyName: 'OPENROUTER_API_KEY', fetch: toFake, retry: fast }).call({
        messages: [{ role: 'user', content: 'hi' }],
      }),
    );
    expect(error.message).toBe('OpenRouter rejected the key OPENROUTER_API_KEY (401). Check it at https://openrouter.ai/keys.');
    expect(server.requests[0].path).toBe('/v1/chat/completions');
    expectSecretAbsent(error, key);
  });

  it('needs a baseUrl', () => {
    expect(() => createOpenAICompatibleWorker({ ...spec, baseUrl: undefined }, {})).toThrow(expect.objectContaining({ code: 'run/config' }));
  });

  it('takes no prefill', () => {
    expect(createOpenAICompatibleWorker(spec, {}).supportsPrefill).toBe(false);
  });
});

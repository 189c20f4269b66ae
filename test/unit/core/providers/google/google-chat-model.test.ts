import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createGoogleWorker } from '../../../../../src/core/providers/google/google-chat-model.ts';
import type { WorkerSpec } from '../../../../../src/core/providers/types.ts';
import { costUsd, priceFor } from '../../../../../src/core/pricing/index.ts';
import { startFakeProviderServer, type FakeProviderServer } from '../../../../support/fake-provider-server.ts';
import { expectSecretAbsent, rejectionOf } from '../common/secret-check.ts';

const KEY = 'AIza-test-KEY-4b8e';
let server: FakeProviderServer;
let spec: WorkerSpec;

beforeAll(async () => {
  server = await startFakeProviderServer({ acceptKeys: [KEY], knownModels: ['gemini-2.5-flash'] });
});
afterAll(() => server.close());
beforeEach(() => {
  server.reset();
  spec = { id: 'w3', provider: 'google', model: 'gemini-2.5-flash', baseUrl: `${server.url}/v1beta`, reasoning: 1024, maxTokens: 256 };
});

const worker = (s: WorkerSpec = spec, apiKey = KEY) => createGoogleWorker(s, { apiKey, keyName: 'GEMINI_API_KEY', retry: { baseDelayMs: 1, maxDelayMs: 5 } });

describe('Gemini worker', () => {
  it('streams over streamGenerateContent?alt=sse and reads thought and cached tokens', async () => {
    server.script({ text: 'Paris is the capital.', reasoning: 'Capital of France...', usage: { input: 50, output: 40, cached: 20, reasoning: 30 } });
    const deltas: string[] = [];
    const result = await worker().call({ messages: [{ role: 'user', content: 'Capital of France?' }], onDelta: (d) => deltas.push(d) });
    // Thought text is not part of the answer.
    expect(deltas.join('')).toBe('Paris is the capital.');
    expect(result).toMatchObject({ text: 'Paris is the capital.', usage: { input: 50, output: 40, cached: 20, reasoning: 30 }, finishReason: 'stop' });
    const [request] = server.requests;
    expect(request.path).toBe('/v1beta/models/gemini-2.5-flash:streamGenerateContent');
    expect(request.query).toEqual({ alt: 'sse' });
    expect(costUsd(result.usage, priceFor('gemini-2.5-flash'))).toBeCloseTo((30 * 0.3 + 20 * 0.03 + 40 * 2.5) / 1e6, 12);
  });

  it('sends the key in x-goog-api-key (never in the URL) with the thinking budget and the limit', async () => {
    server.script({ text: 'ok' });
    await worker().call({
      messages: [
        { role: 'system', content: 'Be brief.' },
        { role: 'user', content: 'hi' },
      ],
    });
    const [request] = server.requests;
    expect(request.path).toBe('/v1beta/models/gemini-2.5-flash:generateContent');
    expect(request.headers['x-goog-api-key']).toBe(KEY);
    expect(JSON.stringify(request.query)).not.toContain(KEY);
    expect(request.body).toMatchObject({
      generationConfig: { maxOutputTokens: 256, thinkingConfig: { thinkingBudget: 1024 } },
      contents: [{ role: 'user', parts: [{ text: 'hi' }] }],
      systemInstruction: { parts: [{ text: 'Be brief.' }] },
    });
  });

  it('takes no prefill', async () => {
    expect(worker().supportsPrefill).toBe(false);
  });

  it("reads Gemini's 400 API_KEY_INVALID as a rejected key", async () => {
    const wrongKey = 'AIza-wrong-RECOGNISABLE-31';
    const error = await rejectionOf(worker(spec, wrongKey).call({ messages: [{ role: 'user', content: 'hi' }] }));
    expect(error.code).toBe('provider/auth');
    expect(error.message).toBe('Google Gemini rejected the key GEMINI_API_KEY (400). Check it at https://aistudio.google.com/apikey.');
    expect(server.requests).toHaveLength(1);
    expectSecretAbsent(error, wrongKey);
  });

  it('says the model is unknown on 404', async () => {
    const error = await rejectionOf(worker({ ...spec, model: 'gemini-0.1-nope' }).call({ messages: [{ role: 'user', content: 'hi' }], onDelta: () => {} }));
    expect(error.code).toBe('provider/unknown-model');
    expect(error.message).toContain("'gemini-0.1-nope'");
  });

  it('waits the retryDelay that a 429 RESOURCE_EXHAUSTED body asks for (Gemini sends no retry-after header)', async () => {
    const quotaBody = {
      error: {
        code: 429,
        message: 'You exceeded your current quota, please check your plan and billing details.',
        status: 'RESOURCE_EXHAUSTED',
        details: [
          {
            '@type': 'type.googleapis.com/google.rpc.QuotaFailure',
            violations: [{ quotaMetric: 'generativelanguage.googleapis.com/generate_content_free_tier_requests' }],
          },
          { '@type': 'type.googleapis.com/google.rpc.RetryInfo', retryDelay: '0.3s' },
        ],
      },
    };
    server.script({ status: 429, errorBody: quotaBody }, { text: 'ok' });
    const result = await worker().call({ messages: [{ role: 'user', content: 'hi' }], onDelta: () => {} });
    expect(result.attempts).toBe(2);
    expect(server.requests[1].at - server.requests[0].at).toBeGreaterThanOrEqual(250);
  });
});

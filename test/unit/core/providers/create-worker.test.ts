import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createWorkerModel } from '../../../../src/core/providers/create-worker.ts';
import type { WorkerSpec } from '../../../../src/core/providers/types.ts';
import { startFakeProviderServer, type FakeProviderServer } from '../../../support/fake-provider-server.ts';

let server: FakeProviderServer;
beforeAll(async () => {
  server = await startFakeProviderServer();
});
afterAll(() => server.close());

describe('createWorkerModel', () => {
  it('dispatches each network provider to its wire format', async () => {
    const specs: WorkerSpec[] = [
      { id: 'a', provider: 'openai', model: 'gpt-5-nano', baseUrl: `${server.url}/v1` },
      { id: 'b', provider: 'anthropic', model: 'claude-haiku-4-5', baseUrl: `${server.url}/v1` },
      { id: 'c', provider: 'google', model: 'gemini-2.5-flash-lite', baseUrl: `${server.url}/v1beta` },
      { id: 'd', provider: 'openai-compatible', model: 'llama3', baseUrl: `${server.url}/v1` },
    ];
    for (const spec of specs) {
      const result = await createWorkerModel(spec, { apiKey: 'k' }).call({ messages: [{ role: 'user', content: 'hi' }] });
      expect(result.text).toBe('ok');
    }
    expect(server.requests.map((r) => r.protocol)).toEqual(['openai', 'anthropic', 'google', 'openai']);
  });

  it('names the default key variable in errors when no key name is given', async () => {
    const spec: WorkerSpec = { id: 'a', provider: 'anthropic', model: 'claude-haiku-4-5', baseUrl: `${server.url}/v1` };
    await expect(createWorkerModel(spec, {}).call({ messages: [{ role: 'user', content: 'hi' }] })).rejects.toMatchObject({
      code: 'provider/auth',
      message: expect.stringContaining('ANTHROPIC_API_KEY'),
    });
  });

  it('refuses webllm and engine workers where no local runtime is given, and replay without a table', () => {
    for (const provider of ['webllm', 'engine'] as const) {
      expect(() => createWorkerModel({ id: 'x', provider, model: 'm' })).toThrow(expect.objectContaining({ code: 'provider/unsupported' }));
    }
    expect(() => createWorkerModel({ id: 'x', provider: 'replay', model: 'm' })).toThrow(expect.objectContaining({ code: 'run/config' }));
  });
});

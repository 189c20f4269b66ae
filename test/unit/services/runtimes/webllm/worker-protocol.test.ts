/**
 * web-llm's own worker protocol, with its handler and client joined in one thread by structured-cloned
 * MessageEvents (what a dedicated worker would do): errors arrive at the page as "Name: message"
 * strings, and Baton maps them all the same.
 */
import 'fake-indexeddb/auto';
import { CreateWebWorkerMLCEngine, prebuiltAppConfig, WebWorkerMLCEngine, WebWorkerMLCEngineHandler } from '@mlc-ai/web-llm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  buildWebllmEngineConfig,
  createWebllmConductor,
  toWebllmError,
  webllmModelChoices,
  type WebllmModelChoice,
} from '../../../../../src/services/runtimes/webllm/index.ts';

const small = webllmModelChoices({ shaderF16: false }, prebuiltAppConfig.model_list).find((c) => c.modelId === 'Qwen2.5-0.5B-Instruct-q4f32_1-MLC')!;
const offline: WebllmModelChoice = {
  ...small,
  record: { ...small.record, model: 'http://127.0.0.1:9/Qwen2.5-0.5B/', model_lib: 'http://127.0.0.1:9/lib.wasm' },
};

function joined(): Worker {
  const event = (data: unknown) => new MessageEvent('message', { data: structuredClone(data) });
  const page = { onmessage: null as ((e: MessageEvent) => void) | null, postMessage: (m: unknown) => setTimeout(() => handler.onmessage(event(m))) };
  class InThread extends WebWorkerMLCEngineHandler {
    override postMessage(m: unknown): void {
      setTimeout(() => page.onmessage?.(event(m)));
    }
  }
  const handler = new InThread();
  return page as unknown as Worker;
}

beforeAll(() => {
  Object.defineProperty(globalThis, 'location', { value: new URL('http://127.0.0.1:9/'), configurable: true });
});
afterAll(() => {
  Reflect.deleteProperty(globalThis, 'location');
});

describe("web-llm's worker protocol", () => {
  it('rejects a failed load with a string, which maps to the network error', async () => {
    const setup = buildWebllmEngineConfig(offline, { onProgress: () => {}, cache: 'indexeddb' });
    const thrown = await CreateWebWorkerMLCEngine(joined(), setup.modelId, setup.engineConfig).catch((e: unknown) => e);
    expect(typeof thrown).toBe('string');
    expect(thrown).toMatch(/^Error: Failed to store http:\/\/127\.0\.0\.1:9\/Qwen2\.5-0\.5B\/resolve\/main\/mlc-chat-config\.json/);
    expect(toWebllmError(thrown).code).toBe('provider/network');
  });

  it('a Conductor on a worker engine with no model says to load it again', async () => {
    const conductor = createWebllmConductor(new WebWorkerMLCEngine(joined()), small, { temperature: 1, maxNewTokens: 64 });
    await expect(conductor.generate({ messages: [{ role: 'user', content: 'Question?' }] })).rejects.toMatchObject({
      code: 'run/config',
      data: { webllm: 'WorkerEngineModelNotLoadedError' },
    });
  });
});

import 'fake-indexeddb/auto';
import { prebuiltAppConfig } from '@mlc-ai/web-llm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadWebllmEngine, webllmModelChoices, type WebllmLoadProgress, type WebllmModelChoice } from '../../../../../src/services/runtimes/webllm/index.ts';
import { BatonError } from '../../../../../src/core/errors/index.ts';

const real = webllmModelChoices({ shaderF16: false }, prebuiltAppConfig.model_list).find((c) => c.modelId === 'Qwen2.5-0.5B-Instruct-q4f32_1-MLC')!;
/** Files on a closed local port: the real web-llm load runs until its first download, which fails. */
const offline: WebllmModelChoice = { ...real, record: { ...real.record, model: 'http://127.0.0.1:9/Qwen2.5-0.5B/', model_lib: 'http://127.0.0.1:9/lib.wasm' } };

// web-llm resolves model URLs against the worker's location, which Node lacks.
beforeAll(() => {
  Object.defineProperty(globalThis, 'location', { value: new URL('http://127.0.0.1:9/'), configurable: true });
});
afterAll(() => {
  Reflect.deleteProperty(globalThis, 'location');
});

async function rejection(p: Promise<unknown>): Promise<BatonError> {
  const e = await p.then(
    () => undefined,
    (err: unknown) => err,
  );
  if (!(e instanceof BatonError)) throw new Error(`expected a BatonError, got ${String(e)}`);
  return e;
}

describe('loadWebllmEngine with the real web-llm, offline', () => {
  it('fails on the download with an actionable network error', async () => {
    const seen: WebllmLoadProgress[] = [];
    const e = await rejection(loadWebllmEngine(offline, { onProgress: (p) => seen.push(p), cache: 'indexeddb' }));
    expect(e.code).toBe('provider/network');
    expect(e.isRetryable).toBe(true);
    expect(String(e.data?.detail)).toContain('http://127.0.0.1:9/Qwen2.5-0.5B/resolve/main/mlc-chat-config.json');
    expect(seen).toEqual([]);
  });

  it('does not start when already aborted', async () => {
    const controller = new AbortController();
    controller.abort();
    expect((await rejection(loadWebllmEngine(offline, { onProgress: () => {}, signal: controller.signal }))).code).toBe('run/aborted');
  });
});

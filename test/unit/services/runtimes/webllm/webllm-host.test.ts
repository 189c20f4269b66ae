import 'fake-indexeddb/auto';
import { prebuiltAppConfig } from '@mlc-ai/web-llm';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import {
  WebllmHost,
  webllmModelChoices,
  type WebllmLoadedEngine,
  type WebllmLoader,
  type WebllmModelChoice,
} from '../../../../../src/services/runtimes/webllm/index.ts';
import { BatonError } from '../../../../../src/core/errors/index.ts';

const choices = webllmModelChoices({ shaderF16: false }, prebuiltAppConfig.model_list);
const small = choices.find((c) => c.modelId === 'Qwen2.5-0.5B-Instruct-q4f32_1-MLC')!;
const other = choices.find((c) => c.modelId === 'Qwen3-0.6B-q4f32_1-MLC')!;

/** Loads that the test finishes by hand; the engines count their unloads. */
class Loads {
  readonly started: {
    modelId: string;
    signal?: AbortSignal;
    finish: () => void;
    fail: (e: unknown) => void;
    engine: WebllmLoadedEngine & { unloads: number };
  }[] = [];
  readonly load: WebllmLoader = (choice, options) =>
    new Promise((resolve, reject) => {
      const engine = {
        unloads: 0,
        chat: { completions: { create: () => Promise.reject(new Error('not used')) } },
        interruptGenerate: () => {},
        unload: async () => {
          engine.unloads += 1;
        },
      };
      if (options.signal?.aborted) reject(new BatonError({ code: 'run/aborted', message: 'Stopped.' }));
      options.signal?.addEventListener('abort', () => reject(new BatonError({ code: 'run/aborted', message: 'Stopped.' })));
      this.started.push({ modelId: choice.modelId, signal: options.signal, finish: () => resolve(engine), fail: reject, engine });
    });
}

const noProgress = { onProgress: () => {} };

describe('WebllmHost', () => {
  it('reuses the loaded model, also while it is still loading', async () => {
    const loads = new Loads();
    const host = new WebllmHost(loads.load);
    const first = host.ready(small, noProgress);
    const joined = host.ready(small, noProgress);
    await vi.waitFor(() => expect(loads.started).toHaveLength(1));
    loads.started[0].finish();
    expect(await joined).toBe(await first);
    expect(await host.ready(small, noProgress)).toBe(await first);
    expect(loads.started).toHaveLength(1);
    expect(host.modelId).toBe(small.modelId);
  });

  it('unloads the previous model before loading another, and stops a load in progress', async () => {
    const loads = new Loads();
    const host = new WebllmHost(loads.load);
    const first = host.ready(small, noProgress);
    await vi.waitFor(() => expect(loads.started).toHaveLength(1));
    loads.started[0].finish();
    await first;
    const second = host.ready(other, noProgress);
    await vi.waitFor(() => expect(loads.started).toHaveLength(2));
    expect(loads.started[0].engine.unloads).toBe(1);
    expect(loads.started.map((l) => l.modelId)).toEqual([small.modelId, other.modelId]);
    await host.unload();
    await expect(second).rejects.toMatchObject({ code: 'run/aborted' });
    expect(loads.started[1].engine.unloads).toBe(0);
    expect(host.modelId).toBeUndefined();
  });

  it("stops the load when the caller's signal aborts", async () => {
    const loads = new Loads();
    const controller = new AbortController();
    const loading = new WebllmHost(loads.load).ready(small, { ...noProgress, signal: controller.signal });
    controller.abort();
    await expect(loading).rejects.toMatchObject({ code: 'run/aborted' });
  });
});

describe('WebllmHost on the real web-llm, offline', () => {
  const offline: WebllmModelChoice = {
    ...small,
    record: { ...small.record, model: 'http://127.0.0.1:9/Qwen2.5-0.5B/', model_lib: 'http://127.0.0.1:9/lib.wasm' },
  };
  beforeAll(() => {
    Object.defineProperty(globalThis, 'location', { value: new URL('http://127.0.0.1:9/'), configurable: true });
  });
  afterAll(() => {
    Reflect.deleteProperty(globalThis, 'location');
  });

  it('forgets a failed load so the next call tries again', async () => {
    const host = new WebllmHost();
    await expect(host.ready(offline, { ...noProgress, cache: 'indexeddb' })).rejects.toMatchObject({ code: 'provider/network' });
    expect(host.modelId).toBeUndefined();
  });
});

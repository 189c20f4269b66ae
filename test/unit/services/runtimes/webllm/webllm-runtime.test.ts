import 'fake-indexeddb/auto';
import { prebuiltAppConfig } from '@mlc-ai/web-llm';
import { describe, expect, it } from 'vitest';
import { webllmCapsOf, WebllmHost, WebllmRuntime, type WebllmCaps, type WebllmLoader } from '../../../../../src/services/runtimes/webllm/index.ts';

const prebuilt = async () => prebuiltAppConfig.model_list;

/** Loads that finish at once with an engine that is never asked to chat. */
const instantLoad: WebllmLoader = async () => ({
  chat: { completions: { create: () => Promise.reject(new Error('not used')) } },
  interruptGenerate: () => {},
  unload: async () => {},
});

describe('WebllmRuntime', () => {
  it("offers the q4f32 builds where the GPU lacks shader-f16, q4f16 where it has it, from web-llm's real list", async () => {
    const ids = async (caps: WebllmCaps) => (await new WebllmRuntime({ caps: async () => caps, prebuilt }).choices()).map((c) => c.modelId);
    const f32 = await ids({ shaderF16: false, maxStorageBufferBindingSize: 2 ** 30 });
    expect(f32.slice(0, 3)).toEqual(['Qwen2.5-7B-Instruct-q4f32_1-MLC', 'Qwen2.5-3B-Instruct-q4f32_1-MLC', 'Qwen2.5-1.5B-Instruct-q4f32_1-MLC']);
    expect(f32.every((id) => id.includes('-q4f32_1-'))).toBe(true);
    const f16 = await ids({ shaderF16: true });
    expect(f16.slice(0, 3)).toEqual(['Qwen2.5-7B-Instruct-q4f16_1-MLC', 'Qwen2.5-3B-Instruct-q4f16_1-MLC', 'Qwen2.5-1.5B-Instruct-q4f16_1-MLC']);
  });

  it('says a stored f16 model needs shader-f16 when this GPU lacks it', async () => {
    const runtime = new WebllmRuntime({ caps: async () => ({ shaderF16: false }), prebuilt });
    await expect(runtime.choice('Qwen2.5-7B-Instruct-q4f16_1-MLC')).rejects.toMatchObject({
      code: 'engine/unsupported',
      message: expect.stringContaining('it needs shader-f16, which this GPU lacks'),
    });
    await expect(runtime.choice('No-Such-Model-MLC')).rejects.toMatchObject({ code: 'engine/unsupported', message: expect.not.stringContaining('shader-f16') });
  });

  it('asks the GPU again after a failure instead of keeping it', async () => {
    let asked = 0;
    const runtime = new WebllmRuntime({
      prebuilt,
      caps: async () => {
        asked += 1;
        if (asked === 1) return webllmCapsOf(undefined);
        return { shaderF16: false };
      },
    });
    await expect(runtime.choices()).rejects.toMatchObject({ code: 'engine/no-adapter' });
    expect((await runtime.choices()).length).toBeGreaterThan(3);
    await runtime.choices();
    expect(asked).toBe(2);
  });

  it('knows which model is loaded only once its load has finished, and forgets it on unload', async () => {
    const runtime = new WebllmRuntime({ host: new WebllmHost(instantLoad), caps: async () => ({ shaderF16: false }), prebuilt });
    const id = 'Qwen2.5-1.5B-Instruct-q4f32_1-MLC';
    const loading = runtime.ready(id, { onProgress: () => {} });
    expect(runtime.current()).toBeUndefined();
    const { choice } = await loading;
    expect(choice.modelId).toBe(id);
    expect(runtime.current()).toBe(id);
    expect(runtime.isLoaded(id)).toBe(true);
    await runtime.unload();
    expect(runtime.current()).toBeUndefined();
  });
});

describe('webllmCapsOf', () => {
  it('explains, in plain words, a browser without WebGPU and one without an adapter', async () => {
    await expect(webllmCapsOf(undefined)).rejects.toMatchObject({
      code: 'engine/no-adapter',
      message: expect.stringMatching(/^This browser offers no WebGPU here/),
    });
    // A browser with the API but nothing behind it (a blocklisted GPU); no such browser runs here.
    const noAdapter = { requestAdapter: async () => null } as unknown as GPU;
    await expect(webllmCapsOf(noAdapter)).rejects.toMatchObject({
      code: 'engine/no-adapter',
      message: expect.stringMatching(/found no usable graphics adapter/),
    });
  });
});

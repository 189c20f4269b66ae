import { prebuiltAppConfig, type ModelRecord } from '@mlc-ai/web-llm';
import { describe, expect, it } from 'vitest';
import { BatonError } from '../../../../../src/core/errors/index.ts';
import { webllmModelChoices } from '../../../../../src/services/runtimes/webllm/index.ts';

const MiB = 2 ** 20;
const prebuilt = prebuiltAppConfig.model_list;
const FAMILIES = [
  'Qwen2.5-7B-Instruct',
  'Qwen2.5-3B-Instruct',
  'Qwen2.5-1.5B-Instruct',
  'Qwen2.5-0.5B-Instruct',
  'Qwen3-8B',
  'Qwen3-4B',
  'Qwen3-1.7B',
  'Qwen3-0.6B',
  'Llama-3.1-8B-Instruct',
  'Llama-3.2-3B-Instruct',
  'Llama-3.2-1B-Instruct',
];

function thrown(f: () => unknown): BatonError {
  try {
    f();
  } catch (e) {
    if (e instanceof BatonError) return e;
    throw e;
  }
  throw new Error('expected a BatonError');
}

describe('webllmModelChoices against web-llm 0.2.86 prebuiltAppConfig', () => {
  it('offers the q4f16_1 builds, in order, where the GPU has shader-f16', () => {
    const choices = webllmModelChoices({ shaderF16: true }, prebuilt);
    expect(choices.map((c) => c.modelId)).toEqual(FAMILIES.map((f) => `${f}-q4f16_1-MLC`));
    expect(choices.every((c) => c.precision === 'f16')).toBe(true);
  });

  it('offers only q4f32_1 builds without shader-f16, never an f16 one', () => {
    const choices = webllmModelChoices({ shaderF16: false }, prebuilt);
    expect(choices.map((c) => c.modelId)).toEqual(FAMILIES.map((f) => `${f}-q4f32_1-MLC`));
    expect(choices.some((c) => /f16/.test(c.modelId) || c.record.required_features?.includes('shader-f16'))).toBe(false);
  });

  it("carries web-llm's record, its size and a label", () => {
    const [first] = webllmModelChoices({ shaderF16: true }, prebuilt);
    const record = prebuilt.find((r) => r.model_id === 'Qwen2.5-7B-Instruct-q4f16_1-MLC');
    expect(first.record).toEqual(record);
    expect(first.record).not.toBe(record);
    expect(first.vramMB).toBe(5106.67);
    expect(first.contextWindow).toBe(4096);
    expect(first.thinks).toBe(false);
    expect(first.label).toBe('Qwen2.5 7B Instruct (the paper\u2019s Conductor base) \u00b7 4-bit weights, f16 \u00b7 about 5.0 GB of GPU memory');
    expect(webllmModelChoices({ shaderF16: true }, prebuilt).find((c) => c.modelId.startsWith('Qwen3-4B'))?.thinks).toBe(true);
  });

  it("keeps to web-llm's low-resource builds when storage bindings are under 1 GiB", () => {
    const choices = webllmModelChoices({ shaderF16: false, maxStorageBufferBindingSize: 512 * MiB }, prebuilt);
    expect(choices.map((c) => c.modelId)).toEqual(
      [
        'Qwen2.5-3B-Instruct',
        'Qwen2.5-1.5B-Instruct',
        'Qwen2.5-0.5B-Instruct',
        'Qwen3-4B',
        'Qwen3-1.7B',
        'Qwen3-0.6B',
        'Llama-3.2-3B-Instruct',
        'Llama-3.2-1B-Instruct',
      ].map((f) => `${f}-q4f32_1-MLC`),
    );
    expect(webllmModelChoices({ shaderF16: false, maxStorageBufferBindingSize: 1024 * MiB }, prebuilt)).toHaveLength(FAMILIES.length);
  });

  it('refuses a GPU below the 128 MiB binding web-llm needs, saying why', () => {
    const e = thrown(() => webllmModelChoices({ shaderF16: true, maxStorageBufferBindingSize: 64 * MiB }, prebuilt));
    expect(e.code).toBe('engine/unsupported');
    expect(e.message).toContain('at most 64 MB per storage buffer; web-llm needs 128 MB');
  });

  it('drops a record whose required features the GPU lacks, and says so when none is left', () => {
    const needsF16 = (r: ModelRecord): ModelRecord => ({ ...r, required_features: ['shader-f16'] });
    const marked = prebuilt.map((r) => (r.model_id === 'Qwen2.5-0.5B-Instruct-q4f32_1-MLC' ? needsF16(r) : r));
    expect(webllmModelChoices({ shaderF16: false }, marked).map((c) => c.modelId)).not.toContain('Qwen2.5-0.5B-Instruct-q4f32_1-MLC');
    const e = thrown(() => webllmModelChoices({ shaderF16: false }, prebuilt.map(needsF16)));
    expect(e.code).toBe('engine/unsupported');
    expect(e.message).toContain("None of web-llm's Conductor models fits this GPU");
    expect(e.message).toContain('no shader-f16');
  });

  it("says so when web-llm lists none of Baton's models", () => {
    const e = thrown(() =>
      webllmModelChoices(
        { shaderF16: true },
        prebuilt.filter((r) => !r.model_id.includes('q4f16_1')),
      ),
    );
    expect(e.code).toBe('engine/unsupported');
    expect(e.message).toContain("lists none of Baton's Conductor models in q4f16_1");
  });
});

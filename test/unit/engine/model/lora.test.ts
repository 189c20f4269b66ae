import { describe, expect, it } from 'vitest';
import { BatonError } from '../../../../src/core/errors/index.ts';
import { parseModelConfig } from '../../../../src/engine/model/config.ts';
import { filesFromMemory } from '../../../../src/engine/model/files.ts';
import { initLoraAdapter, isTargeted, linearModules, readPeftAdapter, writePeftAdapter } from '../../../../src/engine/model/lora.ts';
import { headerLength, parseHeader, writeSafetensors } from '../../../../src/engine/model/safetensors.ts';
import { seededRandom } from '../../../../src/core/random.ts';

const model = parseModelConfig({
  architectures: ['Qwen2ForCausalLM'],
  hidden_size: 16,
  intermediate_size: 24,
  num_hidden_layers: 2,
  num_attention_heads: 4,
  num_key_value_heads: 2,
  vocab_size: 32,
});

function adapterFiles(
  adapter = initLoraAdapter(model, { r: 2, alpha: 6, targetModules: ['q_proj', 'down_proj'], dropout: 0.05, baseModel: 'Qwen/Qwen2.5-0.5B' }, seededRandom(1)),
) {
  for (const w of adapter.weights.values()) w.B = w.B.map((_, i) => 0.01 * (i + 1));
  return { adapter, files: filesFromMemory('mem', writePeftAdapter(adapter)) };
}

async function rejection(p: Promise<unknown>): Promise<BatonError> {
  try {
    await p;
  } catch (e) {
    if (e instanceof BatonError) return e;
    throw e;
  }
  throw new Error('expected a BatonError');
}

describe('LoRA adapters', () => {
  it('targets modules the way PEFT matches them', () => {
    expect(isTargeted('model.layers.0.self_attn.q_proj', ['q_proj'])).toBe(true);
    expect(isTargeted('model.layers.0.self_attn.q_proj', ['model.layers.0.self_attn.q_proj'])).toBe(true);
    expect(isTargeted('model.layers.0.self_attn.q_proj', ['proj'])).toBe(false);
    expect(linearModules(model).find((m) => m.path === 'model.layers.1.self_attn.k_proj')).toEqual({
      path: 'model.layers.1.self_attn.k_proj',
      inFeatures: 16,
      outFeatures: 8,
    });
  });

  it('starts as PEFT does: B zero, A non-zero within 1/sqrt(in)', () => {
    const a = initLoraAdapter(model, { r: 2, alpha: 4, targetModules: ['o_proj'], dropout: 0 }, seededRandom(2));
    expect([...a.weights.keys()]).toEqual(['model.layers.0.self_attn.o_proj', 'model.layers.1.self_attn.o_proj']);
    for (const w of a.weights.values()) {
      expect(w.B.every((b) => b === 0)).toBe(true);
      expect(w.A.some((x) => x !== 0)).toBe(true);
      expect(w.A.every((x) => Math.abs(x) <= 1 / Math.sqrt(16))).toBe(true);
    }
    expect(() => initLoraAdapter(model, { r: 2, alpha: 4, targetModules: ['c_attn'], dropout: 0 }, seededRandom(2))).toThrow(/c_attn/);
  });

  it('writes the PEFT layout: config keys and base_model.model.<module>.lora_A/B names with shapes', () => {
    const written = writePeftAdapter(adapterFiles().adapter);
    const config = JSON.parse(new TextDecoder().decode(written['adapter_config.json']));
    expect(config).toMatchObject({
      peft_type: 'LORA',
      r: 2,
      lora_alpha: 6,
      lora_dropout: 0.05,
      target_modules: ['q_proj', 'down_proj'],
      base_model_name_or_path: 'Qwen/Qwen2.5-0.5B',
    });
    const st = written['adapter_model.safetensors'];
    const infos = parseHeader(st.subarray(8, 8 + headerLength(st, 'a')), 'a');
    const shapes = Object.fromEntries(infos.map((i) => [i.name, i.shape]));
    expect(shapes['base_model.model.model.layers.1.self_attn.q_proj.lora_A.weight']).toEqual([2, 16]);
    expect(shapes['base_model.model.model.layers.1.self_attn.q_proj.lora_B.weight']).toEqual([16, 2]);
    expect(shapes['base_model.model.model.layers.0.mlp.down_proj.lora_A.weight']).toEqual([2, 24]);
    expect(Object.keys(shapes)).toHaveLength(8);
  });

  it('reads back what it wrote', async () => {
    const { adapter, files } = adapterFiles();
    const back = await readPeftAdapter(files, model);
    expect(back.config).toEqual(adapter.config);
    expect([...back.weights.keys()].sort()).toEqual([...adapter.weights.keys()].sort());
    for (const [k, w] of adapter.weights) expect(back.weights.get(k)).toEqual(w);
  });

  it('rejects an adapter made for another base model', async () => {
    const bigger = parseModelConfig({
      architectures: ['Qwen2ForCausalLM'],
      hidden_size: 32,
      intermediate_size: 24,
      num_hidden_layers: 2,
      num_attention_heads: 4,
      vocab_size: 32,
    });
    const e = await rejection(readPeftAdapter(adapterFiles().files, bigger));
    expect(e.code).toBe('engine/model-file');
    expect(e.message).toMatch(/another base model \(Qwen\/Qwen2\.5-0\.5B\)/);
  });

  it('rejects rsLoRA and a module with only lora_A', async () => {
    const { files } = adapterFiles();
    const rs = filesFromMemory('rs', {
      'adapter_config.json': new TextEncoder().encode(JSON.stringify({ peft_type: 'LORA', r: 2, lora_alpha: 4, target_modules: ['q_proj'], use_rslora: true })),
      'adapter_model.safetensors': await files.read('adapter_model.safetensors'),
    });
    expect((await rejection(readPeftAdapter(rs))).code).toBe('engine/unsupported');
    const onlyA = filesFromMemory('half', {
      'adapter_config.json': await files.read('adapter_config.json'),
      'adapter_model.safetensors': writeSafetensors([
        { name: 'base_model.model.model.layers.0.self_attn.q_proj.lora_A.weight', dtype: 'F32', shape: [2, 16], data: new Float32Array(32).fill(0.1) },
      ]),
    });
    expect((await rejection(readPeftAdapter(onlyA))).message).toMatch(/model\.layers\.0\.self_attn\.q_proj has only one of lora_A and lora_B/);
  });
});

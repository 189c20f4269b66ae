import { mkdtemp, readFile, readdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { filesFromDir } from '../../../../src/engine/model/files-node.ts';
import { openModel, readPeftAdapter, type LoraAdapter } from '../../../../src/engine/model/index.ts';
import { loadRefModel, refLogprobs } from '../../../../src/engine/runtime/index.ts';
import { adapterCommand } from '../../../../src/node/commands/adapter.ts';
import { recordingIo } from '../../../support/cli-io.ts';
import { writeRandomAdapter, writeTinyModel, type TinyModel } from '../../../support/tiny-model.ts';

const root = await mkdtemp(join(tmpdir(), 'baton-adapter-'));
afterAll(() => rm(root, { recursive: true, force: true }));
let n = 0;
const fresh = () => join(root, `d${n++}`);
const tiny = (o: Partial<Parameters<typeof writeTinyModel>[1]> = {}) =>
  writeTinyModel(fresh(), { architecture: 'qwen2', dtype: 'F32', seed: 3, hidden: 16, heads: 2, kvHeads: 1, layers: 2, tokenizer: 'none', ...o });

async function run(...argv: string[]) {
  const io = recordingIo(root);
  const code = await adapterCommand(argv, io);
  return { code, io, json: io.out ? JSON.parse(io.out) : undefined };
}

describe('baton adapter init', () => {
  it('writes a PEFT adapter: A uniform in +-1/sqrt(in), B zero, the config PEFT and vLLM read', async () => {
    const model = await tiny();
    const out = fresh();
    const { code, json } = await run('init', '--model', model.dir, '--out', out, '--r', '4', '--targets', 'all', '--seed', '7');
    expect(code).toBe(0);
    const { C, I } = { C: 16, I: 32 };
    // q (16x16) k, v (8x16) o (16x16) gate, up (32x16) down (16x32): r * (in + out) each, two layers.
    const perLayer = [16 + 16, 16 + 8, 16 + 8, 16 + 16, C + I, C + I, I + C].reduce((a, b) => a + b, 0) * 4;
    expect(json).toMatchObject({ r: 4, alpha: 8, modules: 14, parameters: 2 * perLayer, seed: 7 });

    const config = JSON.parse(await readFile(join(out, 'adapter_config.json'), 'utf8'));
    expect(config).toMatchObject({
      peft_type: 'LORA',
      task_type: 'CAUSAL_LM',
      r: 4,
      lora_alpha: 8,
      target_modules: ['q_proj', 'k_proj', 'v_proj', 'o_proj', 'gate_proj', 'up_proj', 'down_proj'],
      base_model_name_or_path: model.dir,
    });
    const adapter = await readPeftAdapter(filesFromDir(out), model.config);
    expect(adapter.weights.size).toBe(14);
    for (const [path, w] of adapter.weights) {
      expect(w.A.length, path).toBe(4 * w.inFeatures);
      expect(
        w.B.every((b) => b === 0),
        path,
      ).toBe(true);
      const bound = 1 / Math.sqrt(w.inFeatures);
      expect(Math.max(...w.A.map(Math.abs)), path).toBeLessThanOrEqual(bound);
      expect(Math.max(...w.A.map(Math.abs)), path).toBeGreaterThan(bound / 2);
    }
  });

  it('draws the same A for the same seed and another for another seed', async () => {
    const model = await tiny();
    const bytes = async (seed: string) => {
      const out = fresh();
      await run('init', '--model', model.dir, '--out', out, '--seed', seed);
      return readFile(join(out, 'adapter_model.safetensors'));
    };
    const [a, b, c] = [await bytes('1'), await bytes('1'), await bytes('2')];
    expect(a.length).toBeGreaterThan(1000);
    expect(a.equals(b)).toBe(true);
    expect(a.equals(c)).toBe(false);
  });

  it('refuses what it cannot do, before writing anything', async () => {
    const model = await tiny();
    const taken = fresh();
    await run('init', '--model', model.dir, '--out', taken, '--seed', '1');
    await expect(run('init', '--model', model.dir, '--out', taken)).rejects.toThrow(/is not empty/);
    await expect(run('init', '--model', model.dir, '--out', fresh(), '--targets', 'q_proj,qq_proj')).rejects.toThrow(/unknown: qq_proj/);
    await expect(run('init', '--model', model.dir, '--out', fresh(), '--r', '0')).rejects.toThrow(/--r must be a positive integer/);
    await expect(run('init', '--model', model.dir, '--out', model.dir)).rejects.toThrow(/is an input directory/);
  });
});

describe('baton adapter merge', () => {
  async function mergeCase(model: TinyModel): Promise<{ adapter: LoraAdapter; out: string }> {
    const lora = fresh();
    const adapter = await writeRandomAdapter(lora, {
      model: model.config,
      r: 4,
      alpha: 8,
      targetModules: ['q_proj', 'v_proj', 'o_proj', 'down_proj'],
      seed: 9,
    });
    const out = fresh();
    const { code, json } = await run('merge', '--model', model.dir, '--lora', lora, '--out', out);
    expect(code).toBe(0);
    expect(json).toMatchObject({ merged: 8, of: 14 });
    return { adapter, out };
  }

  it('gives the logprobs of the base with the adapter applied', async () => {
    const model = await tiny({ architecture: 'qwen3' });
    const { adapter, out } = await mergeCase(model);
    const ids = [5, 17, 200, 3, 99, 41, 7];
    const base = await openModel(filesFromDir(model.dir));
    const merged = await openModel(filesFromDir(out));
    const withAdapter = refLogprobs(await loadRefModel(base.tensors, base.config), ids, { lora: adapter });
    const plain = refLogprobs(await loadRefModel(base.tensors, base.config), ids);
    const folded = refLogprobs(await loadRefModel(merged.tensors, merged.config), ids);
    expect(folded).toHaveLength(ids.length - 1);
    // The adapter changes the output; the merged model reproduces the change (f32 rounding of W' aside).
    expect(Math.max(...withAdapter.map((v, i) => Math.abs(v - plain[i])))).toBeGreaterThan(1e-3);
    folded.forEach((v, i) => expect(v).toBeCloseTo(withAdapter[i], 5));
  });

  it("keeps the base's dtype, shards and index, and copies its other files", async () => {
    const model = await tiny({ dtype: 'BF16', sharded: true });
    await writeFile(join(model.dir, 'generation_config.json'), '{"eos_token_id": 3}');
    const { adapter, out } = await mergeCase(model);
    expect((await readdir(out)).sort()).toEqual((await readdir(model.dir)).sort());
    const merged = await openModel(filesFromDir(out));
    const base = await openModel(filesFromDir(model.dir));
    for (const [name, info] of base.tensors.tensors) {
      const m = merged.tensors.tensors.get(name)!;
      expect({ dtype: m.dtype, shape: m.shape, file: m.file }, name).toEqual({ dtype: info.dtype, shape: info.shape, file: info.file });
      const [a, b] = [await base.tensors.read(name), await merged.tensors.read(name)];
      const adapted = adapter.weights.has(name.replace(/\.weight$/, ''));
      expect(
        a.every((v, i) => v === b[i]),
        name,
      ).toBe(!adapted);
    }
    // An adapted weight is W + (alpha / r) B A rounded to bf16 (8 bits of mantissa).
    const name = 'model.layers.1.self_attn.o_proj.weight';
    const { A, B } = adapter.weights.get('model.layers.1.self_attn.o_proj')!;
    const [w, wMerged] = [await base.tensors.read(name), await merged.tensors.read(name)];
    const delta = (o: number, i: number) => 2 * [0, 1, 2, 3].reduce((s, k) => s + B[o * 4 + k] * A[k * 16 + i], 0);
    for (const [o, i] of [
      [0, 0],
      [5, 9],
      [15, 15],
    ]) {
      const expected = w[o * 16 + i] + delta(o, i);
      expect(Math.abs(wMerged[o * 16 + i] - expected)).toBeLessThanOrEqual(Math.abs(expected) * 2 ** -8);
    }
    expect(await readFile(join(out, 'generation_config.json'), 'utf8')).toBe('{"eos_token_id": 3}');
  });

  it('refuses an adapter made for another model', async () => {
    const small = await tiny();
    const other = await tiny({ hidden: 32, heads: 4, kvHeads: 2 });
    const lora = fresh();
    await writeRandomAdapter(lora, { model: other.config, r: 2, alpha: 4, targetModules: ['q_proj'], seed: 1 });
    await expect(run('merge', '--model', small.dir, '--lora', lora, '--out', fresh())).rejects.toThrow(/does not exist in this model/);
  });
});

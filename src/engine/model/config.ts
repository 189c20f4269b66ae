/**
 * config.json of a Hugging Face causal LM, read into the one shape the engine uses.
 *
 * Accepts Qwen2ForCausalLM, Qwen3ForCausalLM and LlamaForCausalLM, written by transformers v4
 * (`torch_dtype`, `rope_theta`, `rope_scaling`) or v5 (`dtype`, `rope_parameters`).
 * `ropeInvFreq` is the single source of rotary frequencies for the reference and the GPU path.
 */
import { BatonError } from '../../core/errors/index.ts';

export type Architecture = 'qwen2' | 'qwen3' | 'llama';

export type RopeScaling =
  | {
      type: 'llama3';
      factor: number;
      lowFreqFactor: number;
      highFreqFactor: number;
      originalMaxPositionEmbeddings: number;
    }
  | { type: 'linear'; factor: number };

export interface ModelConfig {
  architecture: Architecture;
  hiddenSize: number;
  intermediateSize: number;
  numLayers: number;
  numHeads: number;
  numKvHeads: number;
  headDim: number;
  vocabSize: number;
  rmsNormEps: number;
  ropeTheta: number;
  ropeScaling?: RopeScaling;
  tieWordEmbeddings: boolean;
  /** q, k and v projections carry a bias (Qwen2; o_proj never does). */
  attentionBias: boolean;
  /** Qwen3: RMSNorm over each head of q and k (weights [headDim]) before rotary. */
  qkNorm: boolean;
  maxPositionEmbeddings: number;
  /**
   * Qwen2 checkpoints with use_sliding_window: their later layers see only this many past tokens.
   * The engine attends to the whole context, so it runs such a model up to this length only.
   */
  slidingWindow?: number;
  bosTokenId?: number;
  eosTokenIds: number[];
  /** The dtype the checkpoint was saved in, as config.json names it ('bfloat16', 'float32', ...). */
  dtype?: string;
}

const ARCHITECTURES: Record<string, Architecture> = {
  Qwen2ForCausalLM: 'qwen2',
  Qwen3ForCausalLM: 'qwen3',
  LlamaForCausalLM: 'llama',
};

type Json = Record<string, unknown>;

function fail(file: string, message: string): never {
  throw new BatonError({ code: 'engine/model-file', message: `${file}: ${message}`, data: { file } });
}

function positiveInt(json: Json, key: string, file: string, fallback?: number): number {
  const v = json[key] ?? fallback;
  if (typeof v !== 'number' || !Number.isInteger(v) || v <= 0) {
    fail(file, `"${key}" must be a positive integer, got ${JSON.stringify(json[key])}.`);
  }
  return v;
}

function positiveNumber(v: unknown, key: string, file: string): number {
  if (typeof v !== 'number' || !Number.isFinite(v) || v <= 0) {
    fail(file, `"${key}" must be a positive number, got ${JSON.stringify(v)}.`);
  }
  return v;
}

function architectureOf(json: Json, file: string): Architecture {
  const names = json.architectures;
  if (!Array.isArray(names) || names.length === 0 || typeof names[0] !== 'string') {
    fail(file, 'no "architectures" list; expected e.g. ["Qwen2ForCausalLM"].');
  }
  const arch = ARCHITECTURES[names[0]];
  if (!arch) {
    throw new BatonError({
      code: 'engine/unsupported',
      message:
        `${file}: architecture ${names[0]} is not supported; the engine runs ` +
        `${Object.keys(ARCHITECTURES).join(', ')}. Pick a model of one of these families.`,
      data: { file, architecture: names[0] },
    });
  }
  return arch;
}

/** v5 keeps theta and scaling together in `rope_parameters`; v4 splits them. */
function ropeOf(json: Json, file: string): { theta: number; scaling?: RopeScaling } {
  const params = (json.rope_parameters ?? json.rope_scaling) as Json | null | undefined;
  const theta = positiveNumber((json.rope_parameters as Json | undefined)?.rope_theta ?? json.rope_theta ?? 10000, 'rope_theta', file);
  if (params == null) return { theta };
  const kind = params.rope_type ?? params.type ?? 'default';
  if (kind === 'default') return { theta };
  if (kind === 'linear') return { theta, scaling: { type: 'linear', factor: positiveNumber(params.factor, 'factor', file) } };
  if (kind === 'llama3') {
    return {
      theta,
      scaling: {
        type: 'llama3',
        factor: positiveNumber(params.factor, 'factor', file),
        lowFreqFactor: positiveNumber(params.low_freq_factor, 'low_freq_factor', file),
        highFreqFactor: positiveNumber(params.high_freq_factor, 'high_freq_factor', file),
        originalMaxPositionEmbeddings: positiveNumber(params.original_max_position_embeddings, 'original_max_position_embeddings', file),
      },
    };
  }
  throw new BatonError({
    code: 'engine/unsupported',
    message: `${file}: rope scaling "${String(kind)}" is not supported (only default, linear, llama3).`,
    data: { file, ropeType: kind },
  });
}

function tokenIds(v: unknown): number[] {
  if (typeof v === 'number') return [v];
  if (Array.isArray(v)) return v.filter((x): x is number => typeof x === 'number');
  return [];
}

export function parseModelConfig(json: unknown, file = 'config.json'): ModelConfig {
  if (typeof json !== 'object' || json === null || Array.isArray(json)) fail(file, 'expected a JSON object.');
  const c = json as Json;
  const architecture = architectureOf(c, file);
  const hiddenSize = positiveInt(c, 'hidden_size', file);
  const numHeads = positiveInt(c, 'num_attention_heads', file);
  const numKvHeads = positiveInt(c, 'num_key_value_heads', file, numHeads);
  if (numHeads % numKvHeads !== 0) {
    fail(file, `num_attention_heads (${numHeads}) must be a multiple of num_key_value_heads (${numKvHeads}).`);
  }
  const headDim = c.head_dim == null ? hiddenSize / numHeads : positiveInt(c, 'head_dim', file);
  if (!Number.isInteger(headDim) || headDim % 2 !== 0) fail(file, `head dimension ${headDim} must be an even integer.`);
  if (architecture === 'llama' && (c.attention_bias === true || c.mlp_bias === true)) {
    throw new BatonError({
      code: 'engine/unsupported',
      message: `${file}: Llama with attention_bias or mlp_bias is not supported.`,
      data: { file },
    });
  }
  const rope = ropeOf(c, file);
  const dtype = c.dtype ?? c.torch_dtype;
  return {
    architecture,
    hiddenSize,
    intermediateSize: positiveInt(c, 'intermediate_size', file),
    numLayers: positiveInt(c, 'num_hidden_layers', file),
    numHeads,
    numKvHeads,
    headDim,
    vocabSize: positiveInt(c, 'vocab_size', file),
    rmsNormEps: positiveNumber(c.rms_norm_eps ?? 1e-6, 'rms_norm_eps', file),
    ropeTheta: rope.theta,
    ...(rope.scaling ? { ropeScaling: rope.scaling } : {}),
    tieWordEmbeddings: c.tie_word_embeddings === true,
    attentionBias: architecture === 'qwen2' || (architecture === 'qwen3' && c.attention_bias === true),
    qkNorm: architecture === 'qwen3',
    maxPositionEmbeddings: positiveInt(c, 'max_position_embeddings', file, 32768),
    ...(c.use_sliding_window === true && c.sliding_window != null ? { slidingWindow: positiveInt(c, 'sliding_window', file) } : {}),
    ...(typeof c.bos_token_id === 'number' ? { bosTokenId: c.bos_token_id } : {}),
    eosTokenIds: tokenIds(c.eos_token_id),
    ...(typeof dtype === 'string' ? { dtype } : {}),
  };
}

/**
 * Rotary inverse frequencies, one per pair of head dimensions: theta^(-2i/d), rescaled as the
 * config says. Llama 3 keeps high frequencies, divides low ones by `factor`, and blends between.
 */
export function ropeInvFreq(config: ModelConfig): Float64Array {
  const half = config.headDim / 2;
  const inv = new Float64Array(half);
  for (let i = 0; i < half; i++) inv[i] = 1 / Math.pow(config.ropeTheta, (2 * i) / config.headDim);
  const s = config.ropeScaling;
  if (!s) return inv;
  if (s.type === 'linear') return inv.map((f) => f / s.factor);
  const lowFreqWavelen = s.originalMaxPositionEmbeddings / s.lowFreqFactor;
  const highFreqWavelen = s.originalMaxPositionEmbeddings / s.highFreqFactor;
  return inv.map((f) => {
    const wavelen = (2 * Math.PI) / f;
    if (wavelen < highFreqWavelen) return f;
    if (wavelen > lowFreqWavelen) return f / s.factor;
    const smooth = (s.originalMaxPositionEmbeddings / wavelen - s.lowFreqFactor) / (s.highFreqFactor - s.lowFreqFactor);
    return (1 - smooth) * (f / s.factor) + smooth * f;
  });
}

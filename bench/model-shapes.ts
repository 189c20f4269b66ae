/**
 * The model shapes the benches build with random weights (test/support/tiny-model.ts writes them as
 * safetensors): the tests' tiny Qwen2, and Qwen2.5-0.5B's and 1.5B's shapes with their 151,936-token
 * tied vocabularies. Random weights: speed and memory figures only, never quality.
 */
import type { TinyModelOptions } from '../test/support/tiny-model.ts';

export const MODEL_SHAPES: Record<string, Omit<TinyModelOptions, 'seed'>> = {
  tiny: { architecture: 'qwen2', dtype: 'F32', vocab: 256, tokenizer: 'none' },
  'tiny-151k': { architecture: 'qwen2', dtype: 'F32', vocab: 151936, tokenizer: 'none' },
  'qwen0.5b': {
    architecture: 'qwen2',
    dtype: 'BF16',
    hidden: 896,
    layers: 24,
    heads: 14,
    kvHeads: 2,
    intermediate: 4864,
    vocab: 151936,
    tied: true,
    ropeTheta: 1000000,
    tokenizer: 'none',
  },
  'qwen1.5b': {
    architecture: 'qwen2',
    dtype: 'BF16',
    hidden: 1536,
    layers: 28,
    heads: 12,
    kvHeads: 2,
    intermediate: 8960,
    vocab: 151936,
    tied: true,
    ropeTheta: 1000000,
    tokenizer: 'none',
  },
};

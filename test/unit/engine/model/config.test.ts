import { describe, expect, it } from 'vitest';
import { BatonError } from '../../../../src/core/errors/index.ts';
import { parseModelConfig, ropeInvFreq } from '../../../../src/engine/model/config.ts';

// Abridged from the published config.json files of these models (transformers v4 keys).
const qwen25 = {
  architectures: ['Qwen2ForCausalLM'],
  bos_token_id: 151643,
  eos_token_id: 151645,
  hidden_size: 896,
  intermediate_size: 4864,
  max_position_embeddings: 32768,
  num_attention_heads: 14,
  num_hidden_layers: 24,
  num_key_value_heads: 2,
  rms_norm_eps: 1e-6,
  rope_theta: 1000000.0,
  tie_word_embeddings: true,
  torch_dtype: 'bfloat16',
  vocab_size: 151936,
};
const qwen3 = {
  architectures: ['Qwen3ForCausalLM'],
  attention_bias: false,
  eos_token_id: 151645,
  head_dim: 128,
  hidden_size: 1024,
  intermediate_size: 3072,
  max_position_embeddings: 40960,
  num_attention_heads: 16,
  num_hidden_layers: 28,
  num_key_value_heads: 8,
  rms_norm_eps: 1e-6,
  rope_scaling: null,
  rope_theta: 1000000,
  tie_word_embeddings: true,
  torch_dtype: 'bfloat16',
  vocab_size: 151936,
};
const llama32 = {
  architectures: ['LlamaForCausalLM'],
  attention_bias: false,
  bos_token_id: 128000,
  eos_token_id: [128001, 128008, 128009],
  head_dim: 64,
  hidden_size: 2048,
  intermediate_size: 8192,
  max_position_embeddings: 131072,
  mlp_bias: false,
  num_attention_heads: 32,
  num_hidden_layers: 16,
  num_key_value_heads: 8,
  rms_norm_eps: 1e-5,
  rope_scaling: { factor: 32.0, high_freq_factor: 4.0, low_freq_factor: 1.0, original_max_position_embeddings: 8192, rope_type: 'llama3' },
  rope_theta: 500000.0,
  tie_word_embeddings: true,
  torch_dtype: 'bfloat16',
  vocab_size: 128256,
};

/** The same config as transformers v5 writes it: dtype, and theta inside rope_parameters. */
function toV5(c: Record<string, unknown>): Record<string, unknown> {
  const { torch_dtype, rope_theta, rope_scaling, ...rest } = c;
  return { ...rest, dtype: torch_dtype, rope_parameters: { rope_theta, rope_type: 'default', ...(rope_scaling as object | null) } };
}

describe('parseModelConfig', () => {
  it('reads a Qwen2.5 config: q/k/v bias, head size from hidden / heads, tied', () => {
    const c = parseModelConfig(qwen25);
    expect(c).toEqual({
      architecture: 'qwen2',
      hiddenSize: 896,
      intermediateSize: 4864,
      numLayers: 24,
      numHeads: 14,
      numKvHeads: 2,
      headDim: 64,
      vocabSize: 151936,
      rmsNormEps: 1e-6,
      ropeTheta: 1000000,
      tieWordEmbeddings: true,
      attentionBias: true,
      qkNorm: false,
      maxPositionEmbeddings: 32768,
      bosTokenId: 151643,
      eosTokenIds: [151645],
      dtype: 'bfloat16',
    });
  });

  it('reads a sliding window only where use_sliding_window turns it on', () => {
    expect(parseModelConfig({ ...qwen25, use_sliding_window: true, sliding_window: 4096 }).slidingWindow).toBe(4096);
    expect(parseModelConfig({ ...qwen25, use_sliding_window: false, sliding_window: 4096 }).slidingWindow).toBeUndefined();
  });

  it('reads a Qwen3 config: explicit head_dim, q/k norm, no bias', () => {
    const c = parseModelConfig(qwen3);
    expect([c.architecture, c.headDim, c.qkNorm, c.attentionBias, c.ropeScaling]).toEqual(['qwen3', 128, true, false, undefined]);
  });

  it('reads a Llama 3.2 config with llama3 rope scaling and several eos ids', () => {
    const c = parseModelConfig(llama32);
    expect(c.architecture).toBe('llama');
    expect(c.eosTokenIds).toEqual([128001, 128008, 128009]);
    expect(c.ropeScaling).toEqual({ type: 'llama3', factor: 32, lowFreqFactor: 1, highFreqFactor: 4, originalMaxPositionEmbeddings: 8192 });
    expect(c.ropeTheta).toBe(500000);
  });

  it('reads transformers v5 keys (dtype, rope_parameters) to the same result as v4', () => {
    for (const v4 of [qwen25, qwen3, llama32]) expect(parseModelConfig(toV5(v4))).toEqual(parseModelConfig(v4));
  });

  it('reads linear rope scaling', () => {
    expect(parseModelConfig({ ...qwen25, rope_scaling: { type: 'linear', factor: 2 } }).ropeScaling).toEqual({ type: 'linear', factor: 2 });
  });

  it('rejects an unsupported architecture naming it', () => {
    const e = (() => {
      try {
        parseModelConfig({ ...qwen25, architectures: ['MistralForCausalLM'] });
      } catch (err) {
        return err;
      }
    })();
    expect(BatonError.is(e, 'engine/unsupported')).toBe(true);
    expect((e as Error).message).toContain('MistralForCausalLM');
  });

  it('rejects missing or inconsistent sizes, naming the file and key', () => {
    const { hidden_size: _, ...noHidden } = qwen25;
    expect(() => parseModelConfig(noHidden, 'm/config.json')).toThrow(/m\/config\.json.*hidden_size/);
    expect(() => parseModelConfig({ ...qwen25, num_key_value_heads: 3 })).toThrow(/multiple/);
    expect(() => parseModelConfig({ ...qwen25, rope_scaling: { rope_type: 'yarn', factor: 4 } })).toThrow(/yarn/);
  });
});

describe('ropeInvFreq', () => {
  it('is theta^(-2i/d) without scaling', () => {
    const inv = ropeInvFreq(parseModelConfig({ ...qwen25, rope_theta: 10000 }));
    expect(inv.length).toBe(32);
    expect(inv[0]).toBe(1);
    expect(inv[1]).toBeCloseTo(10000 ** (-2 / 64), 15);
    expect(inv[31]).toBeCloseTo(10000 ** (-62 / 64), 15);
  });

  it('divides by the factor for linear scaling', () => {
    const plain = ropeInvFreq(parseModelConfig(qwen25));
    const scaled = ropeInvFreq(parseModelConfig({ ...qwen25, rope_scaling: { type: 'linear', factor: 4 } }));
    scaled.forEach((f, i) => expect(f).toBeCloseTo(plain[i] / 4, 15));
  });

  it('keeps high, divides low and blends medium frequencies for Llama 3', () => {
    const config = parseModelConfig(llama32);
    const inv = ropeInvFreq(config);
    const base = ropeInvFreq({ ...config, ropeScaling: undefined });
    // Wavelengths 2 pi / f against 8192 / 4 = 2048 (high) and 8192 / 1 (low), computed by hand:
    // i = 0: wavelength 6.3, kept. i = 31: ~3.6e6, divided by 32.
    expect(inv[0]).toBe(base[0]);
    expect(inv[31]).toBeCloseTo(base[31] / 32, 18);
    // i = 17: wavelength 2 pi 500000^(17/32) = 6695.1, between; smooth = (8192 / 6695.1 - 1) / 3 = 0.07453.
    const wavelen = 2 * Math.PI * 500000 ** (17 / 32);
    expect(wavelen).toBeGreaterThan(2048);
    expect(wavelen).toBeLessThan(8192);
    const smooth = (8192 / wavelen - 1) / 3;
    expect(smooth).toBeCloseTo(0.07453, 4);
    expect(inv[17]).toBeCloseTo(base[17] * ((1 - smooth) / 32 + smooth), 15);
    // Frequencies still fall monotonically after scaling.
    for (let i = 1; i < inv.length; i++) expect(inv[i]).toBeLessThan(inv[i - 1]);
  });
});

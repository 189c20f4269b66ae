// The training memory estimate's arithmetic, counted by hand for a small Llama-shaped model, and the
// refusals of a run that does not fit.
import { describe, expect, it } from 'vitest';
import type { ModelConfig } from '../../../../src/engine/model/index.ts';
import { checkTrainingMemory, estimateTrainingMemory, type TrainingShape } from '../../../../src/engine/train/index.ts';

// C 64, I 128, 2 layers, 4 heads of 16, 2 kv heads, vocabulary 1000, untied, no biases or q/k norms.
const CONFIG: ModelConfig = {
  architecture: 'llama',
  hiddenSize: 64,
  intermediateSize: 128,
  numLayers: 2,
  numHeads: 4,
  numKvHeads: 2,
  headDim: 16,
  vocabSize: 1000,
  rmsNormEps: 1e-6,
  ropeTheta: 10000,
  tieWordEmbeddings: false,
  attentionBias: false,
  qkNorm: false,
  maxPositionEmbeddings: 128,
  eosTokenIds: [2],
};

// Micro-batch of 2 sequences of 11 tokens, 10 packed rows each (the last token predicts nothing): T = 20;
// 8 rows of logits fit the binding.
const LORA: TrainingShape = {
  weights: 'f32',
  train: { r: 4, targetModules: ['q_proj', 'v_proj'] },
  microBatchSequences: 2,
  maxSequenceLength: 11,
  maxBindingBytes: 8 * 1000 * 4,
};

describe('estimateTrainingMemory', () => {
  it('counts each part of a LoRA run over f32 weights', () => {
    // Weights: embed and head 64000 each, per layer 2 norms of 64, q 4096, k 2048, v 2048, o 4096, gate/up/down 8192; final norm 64.
    const weights = 4 * (2 * 64000 + 2 * (2 * 64 + 4096 + 2048 + 2048 + 4096 + 3 * 8192) + 64);
    // q: r (64 + 64), v: r (64 + 32), per layer; A and B, their gradients and two moments, f32.
    const trained = 16 * 2 * (4 * 128 + 4 * 96);
    // Three (T, C) inputs (2 layers and the head's), ids and targets (T), visibility rules (T, 4), RoPE (T, D).
    const savedInputs = 4 * (3 * 20 * 64 + 6 * 20 + 20 * 16);
    // Activations without K/V: h, q, att, mid, h2 (1280 each), k, v (640), lse 80, gate, up, act (2560);
    // gradients without K/V: dAct, dGate, dUp (2560), dH, dAtt, dq (1280), delta 80, dk, dv (640), rstd 80, xA, dxA (T r = 80);
    // dx, final normed rows and their gradient (3 T C); LoRA's (T, r) product for each of the 4 adapted modules.
    const layerScratch = 4 * (5 * 1280 + 2 * 640 + 80 + 3 * 2560 + 3 * 2560 + 3 * 1280 + 80 + 2 * 640 + 80 + 2 * 80 + 3 * 20 * 64 + 4 * 20 * 4);
    const kv = 4 * 4 * 640; // keys, values and their gradients, (T, KV, D) each
    const logits = 4 * 8 * 1000;
    expect(estimateTrainingMemory(CONFIG, LORA)).toEqual({
      weights,
      trained,
      savedInputs,
      layerScratch,
      logits,
      kv,
      total: weights + trained + savedInputs + layerScratch + logits + kv,
      largestBuffer: { name: 'one row chunk of logits', bytes: logits },
    });
  });

  it('counts int4 projections and head with f16 scales, and full fine-tuning', () => {
    // int4 (rows, cols): rows (cols / 2 + 2 cols / 32) bytes; norms and embedding f16.
    const int4 = (rows: number, cols: number) => rows * (cols / 2 + (2 * cols) / 32);
    const layer = int4(64, 64) * 2 + int4(32, 64) * 2 + int4(128, 64) * 2 + int4(64, 128) + 2 * 2 * 64;
    const m = estimateTrainingMemory(CONFIG, { ...LORA, weights: 'int4', floatDtype: 'f16' });
    expect(m.weights).toBe(2 * layer + 2 * 64000 + 2 * 64 + int4(1000, 64));
    const full = estimateTrainingMemory(CONFIG, { ...LORA, train: 'full' });
    expect(full.trained).toBe(3 * full.weights); // gradients and two moments beside each f32 weight
    expect(full.layerScratch).toBe(estimateTrainingMemory(CONFIG, LORA).layerScratch - 4 * (2 * 80 + 4 * 20 * 4)); // no LoRA products
  });

  it('splits the logits in row chunks that fit the binding limit', () => {
    expect(estimateTrainingMemory(CONFIG, { ...LORA, maxBindingBytes: 3 * 4000 + 5 }).logits).toBe(3 * 4000);
    expect(estimateTrainingMemory(CONFIG, { ...LORA, maxBindingBytes: 1e9 }).logits).toBe(20 * 4000); // all T rows
  });

  it("counts a shared prompt's rows once when micro-batches are groups of one prompt", () => {
    // Completions of at most 3 tokens: a prompt of at most 8, its first 7 rows once, then 2 segments of 3 rows.
    const shared = { ...LORA, maxCompletionLength: 3, maxBindingBytes: 1e9 };
    expect(estimateTrainingMemory(CONFIG, shared).logits).toBe((7 + 2 * 3) * 4000);
    expect(estimateTrainingMemory(CONFIG, { ...shared, microBatchSequences: 8 }).logits).toBe((7 + 8 * 3) * 4000);
    // A completion bound at or above the sequence's length leaves nothing to share.
    expect(estimateTrainingMemory(CONFIG, { ...shared, maxCompletionLength: 11 }).logits).toBe(20 * 4000);
  });
});

describe('checkTrainingMemory', () => {
  const limits = { maxBufferSize: 2 ** 30, maxStorageBufferBindingSize: 2 ** 27 };

  it('passes a run that fits and gives its estimate', () => {
    expect(checkTrainingMemory(CONFIG, LORA, { ...limits, budgetBytes: 2 ** 21 }).total).toBe(estimateTrainingMemory(CONFIG, LORA).total);
  });

  it('refuses in plain words a buffer above the per-buffer limits, a row of logits that cannot fit, and a budget overrun', () => {
    expect(() => checkTrainingMemory(CONFIG, LORA, { ...limits, maxBufferSize: 20000 })).toThrow(
      /needs one buffer of 31.3 KiB \(one row chunk of logits\), above this GPU's 19.5 KiB per buffer; use fewer sequences/,
    );
    expect(() => checkTrainingMemory(CONFIG, LORA, { ...limits, maxStorageBufferBindingSize: 3000 })).toThrow(/One row of logits \(1000 tokens/);
    expect(() => checkTrainingMemory(CONFIG, LORA, { ...limits, budgetBytes: 10 ** 6 })).toThrow(
      /above the budget of 976.6 KiB; use fewer sequences per micro-batch/,
    );
  });
});

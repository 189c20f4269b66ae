/**
 * The paper's GRPO recipe (docs/method.md) as `baton export` writes it into TRL's and verl's
 * configurations: one table, so both engines train with the same numbers.
 */

export const PAPER_RECIPE = {
  /** Optimiser steps ("iterations"). */
  steps: 200,
  /** Questions per step; each gets `group` rollouts (batch 256). */
  questionsPerStep: 4,
  group: 64,
  learningRate: 1e-6,
  scheduler: 'cosine',
  warmupRatio: 0.03,
  adamBetas: [0.9, 0.999],
  adamEpsilon: 1e-8,
  weightDecay: 0,
  gradClip: 1.0,
  /** No KL term and no reference model. */
  beta: 0,
  epsilon: 0.2,
  /** One update per batch: on-policy, ratio 1. */
  updatesPerBatch: 1,
  temperature: 1.0,
  topP: 1.0,
  maxCompletionTokens: 1024,
  /**
   * Token-level mean over the whole batch: verl's "token-mean"; TRL 1.13's "dapo" (normalised by the tokens of
   * the global accumulated batch; its "bnpo" normalises each local micro-batch alone).
   */
  lossAggregation: 'token-mean',
  /** The paper ran on 2 x H100 80 GB. */
  gpus: 2,
} as const;

/**
 * Not from the paper (it fine-tuned the whole 7B model): Baton's own choices where an export needs one.
 * Baton's Conductor prompt is ~1,000 tokens with four workers; LoRA wants a learning rate about ten
 * times the full fine-tune's.
 */
export const EXPORT_DEFAULTS = {
  maxPromptTokens: 2048,
  lora: { r: 16, alpha: 32, learningRate: 1e-5 },
  /** Per-GPU sequences per forward pass; with 2 GPUs and 8 accumulation steps, 256 a step. */
  perDeviceBatch: 16,
} as const;

export type TuneMode = 'lora' | 'full';

export function learningRate(mode: TuneMode): number {
  return mode === 'lora' ? EXPORT_DEFAULTS.lora.learningRate : PAPER_RECIPE.learningRate;
}

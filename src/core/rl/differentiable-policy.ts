/**
 * What a GRPO step needs from a model it trains, below the loss: per-token logprobs of sequences with
 * what their backward needs kept, the reference model's logprobs, a backward pass from the loss's
 * gradient in those logprobs, and an optimiser step. core/rl's grpoStep drives it (advantages, the loss,
 * micro-batches); Baton's WebGPU engine implements it (engine/train), and so does the float64 reference
 * trainer the engine is checked against. Types only.
 */

/** One sequence to score: ids[completionStart..] are the completion, the tokens the loss sees. */
export interface ScoredSequence {
  readonly ids: readonly number[];
  /** Index of the first completion token; at least 1 (a token needs a context). */
  readonly completionStart: number;
}

export interface SequenceScores {
  /** Per sequence, log p of each completion token given those before it, logits divided by the temperature. */
  logprobs: ArrayLike<number>[];
  /** Per sequence, the entropy (nats) of each completion token's predicted distribution at the temperature. */
  entropy: ArrayLike<number>[];
}

export interface GradientStep {
  /** False when the gradient held NaN or infinity: nothing changed, and `reason` says what was found. */
  applied: boolean;
  /** Global L2 norm of the accumulated gradient, before clipping (NaN when not finite). */
  gradNorm: number;
  /** The learning rate used (0 when not applied). */
  lr: number;
  /** Optimiser steps taken so far. */
  step: number;
  reason?: string;
}

export interface DifferentiablePolicy {
  /**
   * Scores a micro-batch with the weights being trained and keeps what backward needs (until the next
   * forward). Sequences of different lengths are allowed.
   */
  forward(sequences: readonly ScoredSequence[], temperature: number): Promise<SequenceScores>;
  /** Log-probabilities under the reference model (the base, without the adapter): the KL term's; keeps nothing. */
  referenceLogprobs(sequences: readonly ScoredSequence[], temperature: number): Promise<ArrayLike<number>[]>;
  /**
   * Backpropagates sum over sequences and tokens of dLogp * logp from the last forward, adding into
   * the accumulated gradients (dLogp: one array per sequence, one value per completion token).
   */
  backward(dLogp: readonly ArrayLike<number>[]): Promise<void>;
  /** Clips the accumulated gradient's global norm, takes one AdamW step, zeroes the gradients. */
  applyGradients(): Promise<GradientStep>;
}

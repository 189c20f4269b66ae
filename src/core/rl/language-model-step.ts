/**
 * Next-token training over any DifferentiablePolicy: the loss is a language model's, the mean over every
 * token after each sequence's first of -log p(token | the tokens before it), backpropagated one micro-batch at
 * a time and applied in one optimiser step. A Conductor trained from scratch learns from it to carry the
 * question to the token where it names a model, which GRPO alone does not teach it (docs/learning.md); `baton
 * pretrain` runs it on the prompts a training run will show. Test: test/unit/core/rl/language-model-step.test.ts.
 */
import { BatonError } from '../errors/index.ts';
import type { DifferentiablePolicy, ScoredSequence } from './differentiable-policy.ts';

export interface LanguageModelStepResult {
  /** Mean negative log-likelihood per predicted token (nats) at the weights before the step. */
  loss: number;
  /** Tokens predicted: every sequence's length less one. */
  tokens: number;
  gradNorm: number;
  lr: number;
  /** Optimiser steps taken so far, this one included. */
  step: number;
  /** Set when the gradient held NaN or infinity: nothing changed. */
  skipped?: string;
}

const scored = (ids: readonly number[]): ScoredSequence => ({ ids, completionStart: 1 });

function checkSequences(sequences: readonly (readonly number[])[], microBatchSize: number): number {
  if (!Number.isInteger(microBatchSize) || microBatchSize < 1) {
    throw new BatonError({ code: 'run/config', message: `microBatchSize must be a whole number >= 1, got ${microBatchSize}.` });
  }
  const tokens = sequences.reduce((n, ids) => n + ids.length - 1, 0);
  if (sequences.some((ids) => ids.length < 2) || tokens === 0) {
    throw new BatonError({ code: 'run/config', message: 'Next-token training needs sequences of two or more tokens.' });
  }
  return tokens;
}

/** [start, end) slices of at most `size` sequences. */
const slices = (count: number, size: number) =>
  Array.from({ length: Math.ceil(count / size) }, (_, i): [number, number] => [i * size, Math.min(count, (i + 1) * size)]);

function sumOf(values: ArrayLike<number>): number {
  let sum = 0;
  for (let i = 0; i < values.length; i++) sum += values[i];
  return sum;
}

/**
 * The mean next-token loss of `sequences`, forwarded a micro-batch at a time; with `backward`, each micro-batch's
 * share of its gradient is accumulated in the policy too.
 */
async function meanLoss(
  policy: DifferentiablePolicy,
  sequences: readonly (readonly number[])[],
  o: { microBatchSize: number; backward: boolean; signal?: AbortSignal },
): Promise<{ loss: number; tokens: number }> {
  const tokens = checkSequences(sequences, o.microBatchSize);
  let logLikelihood = 0;
  for (const [start, end] of slices(sequences.length, o.microBatchSize)) {
    o.signal?.throwIfAborted();
    const { logprobs } = await policy.forward(sequences.slice(start, end).map(scored), 1);
    logLikelihood += logprobs.reduce((sum, l) => sum + sumOf(l), 0);
    if (o.backward) await policy.backward(logprobs.map((l) => new Float64Array(l.length).fill(-1 / tokens)));
  }
  return { loss: -logLikelihood / tokens, tokens };
}

/** One optimiser step on the mean next-token loss of `sequences` (token ids). */
export async function languageModelStep(
  policy: DifferentiablePolicy,
  sequences: readonly (readonly number[])[],
  options: { microBatchSize: number; signal?: AbortSignal },
): Promise<LanguageModelStepResult> {
  const { loss, tokens } = await meanLoss(policy, sequences, { ...options, backward: true });
  const applied = await policy.applyGradients();
  return {
    loss,
    tokens,
    gradNorm: applied.gradNorm,
    lr: applied.lr,
    step: applied.step,
    ...(applied.applied ? {} : { skipped: applied.reason ?? 'the gradient was not finite' }),
  };
}

/** The mean next-token loss of `sequences` at the current weights, without a step (a held-out figure). */
export async function languageModelLoss(policy: DifferentiablePolicy, sequences: readonly (readonly number[])[], microBatchSize: number): Promise<number> {
  return (await meanLoss(policy, sequences, { microBatchSize, backward: false })).loss;
}

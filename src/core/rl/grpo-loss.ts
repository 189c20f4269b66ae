/**
 * The GRPO loss, Baton's one definition of it, in float64: its value, d loss / d logp for every
 * completion token (what the engine backpropagates from) and the metrics TRL logs. Numerically TRL's
 * GRPOTrainer._compute_loss (TRL 1.10.0.dev0, importance_sampling_level 'token', no delta, no vLLM
 * correction, no entropy mask), per token t of sequence s with advantage A:
 *   rho   = exp(logp - logp_old)                           logp_old absent: logp detached, rho = 1
 *   loss  = -min(rho A, clamp(rho, 1 - epsLow, 1 + epsHigh) A) + beta k3
 *   k3    = exp(ref - logp) - (ref - logp) - 1             KL to the reference (base without adapter)
 * aggregated as sum over s, t of w_s loss_st with the weights of grpoTokenWeights.
 *
 * The gradient follows PyTorch's subgradients, so it matches autograd on TRL's expression exactly:
 * torch.min(a, b) (= torch.minimum) sends the gradient to the smaller input and half to each at a tie;
 * torch.clamp passes it where min <= x <= max, boundaries included. A tie with A != 0 means rho is
 * inside the clip range, where both halves carry A, so the net rule is: d/d rho = -A unless the token
 * is clipped (rho > 1 + epsHigh with A > 0, or rho < 1 - epsLow with A < 0), where it is 0. Then
 * d rho / d logp = rho (1 with logp_old absent), and d k3 / d logp = 1 - exp(ref - logp).
 *
 * TRL normalises 'bnpo' and 'grpo' within each micro-batch and averages over accumulation steps; here
 * the weights are over the whole batch, so the result does not depend on the micro-batch size (it is
 * TRL's with the whole batch as one micro-batch, and 'bnpo' here equals TRL's 'dapo' on one process).
 * Test: test/unit/core/rl/grpo-loss.test.ts (hand values, central differences, the ratio-1 case).
 */
import { BatonError } from '../errors/index.ts';

/** 'bnpo': sum / completion tokens; 'grpo': mean per sequence, then mean; 'dr_grpo': sum / (S * maxCompletionLength). */
export const GRPO_LOSS_TYPES = ['bnpo', 'grpo', 'dr_grpo'] as const;
export type GrpoLossType = (typeof GRPO_LOSS_TYPES)[number];

export interface GrpoLossOptions {
  /** KL coefficient; 0 needs no reference logprobs (TRL's default). */
  beta: number;
  /** Lower clip: rho below 1 - epsilonLow stops pushing down a negative advantage (TRL's epsilon, 0.2). */
  epsilonLow: number;
  /** Upper clip: rho above 1 + epsilonHigh stops pushing up a positive advantage (TRL's epsilon_high, DAPO's 0.28). */
  epsilonHigh: number;
  lossType: GrpoLossType;
  /** The configured maximum completion length: 'dr_grpo' divides by it, not by the batch's longest. */
  maxCompletionLength: number;
}

/** One completion's tokens; all arrays (T), T the completion's length, logits divided by the sampling temperature. */
export interface GrpoLossSequence {
  /** log p(token) under the policy being trained. */
  logprobs: ArrayLike<number>;
  /** log p(token) under the policy that sampled it (before the first of mu updates); absent: ratio 1. */
  oldLogprobs?: ArrayLike<number>;
  /** log p(token) under the reference (the base, adapter off); needed when beta > 0. */
  refLogprobs?: ArrayLike<number>;
  advantage: number;
  /**
   * TRL's completion_mask: 0 for a token the loss leaves out, 1 (or absent) for one it counts. Format-
   * constrained sampling leaves out the tokens the constraint forced (completionMask in rollout.ts):
   * their probability under the mask was 1, whatever the policy, so they carry no signal.
   */
  mask?: ArrayLike<number>;
}

/** Tokens the loss counts of a completion of `length` tokens. */
export function countedTokens(length: number, mask?: ArrayLike<number>): number {
  if (!mask) return length;
  let n = 0;
  for (let t = 0; t < mask.length; t++) if (mask[t] !== 0) n++;
  return n;
}

/** TRL's clip_ratio/* metrics: fractions of completion tokens whose ratio was clipped. */
export interface GrpoClipRatio {
  /** clip_ratio/low_mean: rho < 1 - epsLow with A < 0, over all tokens. */
  lowMean: number;
  /** clip_ratio/high_mean: rho > 1 + epsHigh with A > 0, over all tokens. */
  highMean: number;
  /** clip_ratio/region_mean: either of the two. */
  regionMean: number;
  /** clip_ratio/low_min: the smallest per-sequence low-clip fraction. */
  lowMin: number;
  /** clip_ratio/high_max: the largest per-sequence high-clip fraction. */
  highMax: number;
}

interface GrpoLossResult {
  loss: number;
  /** d loss / d logprobs, one (T) array per sequence. */
  dlogprobs: Float64Array[];
  clipRatio: GrpoClipRatio;
  /** TRL's kl: mean k3 over completion tokens; undefined unless every sequence has refLogprobs. */
  kl?: number;
  /** Completion tokens in the loss. */
  tokens: number;
}

/**
 * w_s, the weight of each token of sequence s in the loss, from the completion lengths alone (so an
 * engine can backpropagate micro-batch by micro-batch with the whole batch's weights).
 */
export function grpoTokenWeights(lengths: readonly number[], options: Pick<GrpoLossOptions, 'lossType' | 'maxCompletionLength'>): Float64Array {
  const sequences = lengths.length;
  switch (options.lossType) {
    case 'bnpo': {
      const tokens = lengths.reduce((sum, n) => sum + n, 0);
      return new Float64Array(sequences).fill(1 / Math.max(tokens, 1));
    }
    case 'grpo':
      return Float64Array.from(lengths, (n) => 1 / (sequences * Math.max(n, 1)));
    case 'dr_grpo':
      return new Float64Array(sequences).fill(1 / (sequences * options.maxCompletionLength));
  }
}

/**
 * The loss over `sequences` with token weights `weights` (default: this batch's own). Pass a slice of
 * the whole batch's weights to get a micro-batch's share of the loss and its exact gradient.
 */
export function grpoLoss(
  sequences: readonly GrpoLossSequence[],
  options: GrpoLossOptions,
  weights: ArrayLike<number> = grpoTokenWeights(
    sequences.map((s) => countedTokens(s.logprobs.length, s.mask)),
    options,
  ),
): GrpoLossResult {
  checkInputs(sequences, options, weights);
  const low = 1 - options.epsilonLow;
  const high = 1 + options.epsilonHigh;
  const withKl = sequences.every((s) => s.refLogprobs !== undefined);
  let loss = 0;
  let tokens = 0;
  let lowClipped = 0;
  let highClipped = 0;
  let klSum = 0;
  let lowMin = Infinity;
  let highMax = -Infinity;
  const dlogprobs = sequences.map((s, i) => {
    const { logprobs, oldLogprobs, refLogprobs, advantage: A, mask } = s;
    const T = logprobs.length;
    const w = weights[i];
    const dlogp = new Float64Array(T); // (T)
    let seqLow = 0;
    let seqHigh = 0;
    for (let t = 0; t < T; t++) {
      if (mask && mask[t] === 0) continue;
      const logp = logprobs[t];
      const rho = oldLogprobs === undefined ? 1 : Math.exp(logp - oldLogprobs[t]);
      const clamped = Math.min(Math.max(rho, low), high);
      const unclippedTerm = rho * A;
      const clippedTerm = clamped * A;
      // d min(unclipped, clipped) / d rho, as torch.minimum then torch.clamp's backward.
      const toUnclipped = unclippedTerm < clippedTerm ? 1 : unclippedTerm === clippedTerm ? 0.5 : 0;
      const clampPasses = rho >= low && rho <= high ? 1 : 0;
      const dminDrho = A * (toUnclipped + (1 - toUnclipped) * clampPasses);
      let tokenLoss = -Math.min(unclippedTerm, clippedTerm);
      let dTokenLoss = -dminDrho * rho;
      if (refLogprobs !== undefined) {
        const delta = refLogprobs[t] - logp;
        const k3 = Math.exp(delta) - delta - 1;
        klSum += k3;
        tokenLoss += options.beta * k3;
        dTokenLoss += options.beta * (1 - Math.exp(delta));
      }
      loss += w * tokenLoss;
      dlogp[t] = w * dTokenLoss;
      if (rho < low && A < 0) seqLow++;
      if (rho > high && A > 0) seqHigh++;
    }
    const counted = countedTokens(T, mask);
    tokens += counted;
    lowClipped += seqLow;
    highClipped += seqHigh;
    // Per-sequence fractions; an empty completion has none (TRL's NaN, skipped by nanmin/nanmax).
    if (counted > 0) {
      lowMin = Math.min(lowMin, seqLow / counted);
      highMax = Math.max(highMax, seqHigh / counted);
    }
    return dlogp;
  });
  const perToken = (count: number) => count / Math.max(tokens, 1);
  return {
    loss,
    dlogprobs,
    clipRatio: {
      lowMean: perToken(lowClipped),
      highMean: perToken(highClipped),
      // A token cannot be clipped low and high at once (A < 0 and A > 0), so the region count is the sum.
      regionMean: perToken(lowClipped + highClipped),
      lowMin: Number.isFinite(lowMin) ? lowMin : 0,
      highMax: Number.isFinite(highMax) ? highMax : 0,
    },
    ...(withKl ? { kl: perToken(klSum) } : {}),
    tokens,
  };
}

function checkInputs(sequences: readonly GrpoLossSequence[], options: GrpoLossOptions, weights: ArrayLike<number>): void {
  const fail = (message: string) => {
    throw new BatonError({ code: 'run/config', message });
  };
  if (!(options.epsilonLow >= 0 && options.epsilonLow < 1)) fail(`epsilonLow ${options.epsilonLow} must be in [0, 1).`);
  if (!(options.epsilonHigh >= 0)) fail(`epsilonHigh ${options.epsilonHigh} must be 0 or more.`);
  if (!(options.beta >= 0)) fail(`beta ${options.beta} must be 0 or more.`);
  if (options.lossType === 'dr_grpo' && !(Number.isInteger(options.maxCompletionLength) && options.maxCompletionLength > 0)) {
    fail(`maxCompletionLength ${options.maxCompletionLength} must be a positive integer for 'dr_grpo'.`);
  }
  if (weights.length !== sequences.length) fail(`${weights.length} weights for ${sequences.length} sequences.`);
  sequences.forEach((s, i) => {
    const T = s.logprobs.length;
    if (s.oldLogprobs !== undefined && s.oldLogprobs.length !== T) fail(`Sequence ${i}: ${s.oldLogprobs.length} old logprobs for ${T} tokens.`);
    if (s.refLogprobs !== undefined && s.refLogprobs.length !== T) fail(`Sequence ${i}: ${s.refLogprobs.length} reference logprobs for ${T} tokens.`);
    if (s.mask !== undefined && s.mask.length !== T) fail(`Sequence ${i}: a mask of ${s.mask.length} for ${T} tokens.`);
    if (options.beta > 0 && s.refLogprobs === undefined) fail(`Sequence ${i} has no reference logprobs, which beta ${options.beta} > 0 needs.`);
    if (!Number.isFinite(s.advantage)) fail(`Sequence ${i}: advantage ${s.advantage} is not finite.`);
  });
}

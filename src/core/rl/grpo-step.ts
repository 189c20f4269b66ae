/**
 * One GRPO optimiser step over any DifferentiablePolicy: advantages from the groups' rewards, then per
 * micro-batch a forward (logprobs and entropy), the reference pass when beta > 0, the loss's gradient
 * in each logprob from grpoLoss with the whole batch's token weights, and a backward; then one
 * optimiser step. The loss and the gradient are the whole batch's whatever the micro-batch size
 * (grpoTokenWeights depends on lengths alone), and the reported loss and metrics are computed once over
 * the whole batch, at the weights before the step. A micro-batch never spans two groups: its sequences
 * share one prompt, which a trainer runs once (the engine's packed pass, whose memory is checked for that). Test: test/unit/core/rl/grpo-step.test.ts.
 */
import { BatonError } from '../errors/index.ts';
import { groupAdvantages } from './advantages.ts';
import type { DifferentiablePolicy } from './differentiable-policy.ts';
import { flattenGrpoBatch, groupRewards, type GrpoBatch, type GrpoSequence } from './grpo-batch.ts';
import { countedTokens, grpoLoss, grpoTokenWeights, type GrpoLossSequence } from './grpo-loss.ts';
import type { TrainStepOptions, TrainStepResult } from './trainable-policy.ts';

export async function grpoStep(policy: DifferentiablePolicy, batch: GrpoBatch, options: TrainStepOptions): Promise<TrainStepResult> {
  const started = performance.now();
  const { grpo, temperature } = options;
  const micro = options.microBatchSize;
  if (!Number.isInteger(micro) || micro < 1) {
    throw new BatonError({ code: 'run/config', message: `microBatchSize must be a whole number >= 1, got ${micro}.` });
  }
  const sequences = flattenGrpoBatch(batch);
  const advantages = groupAdvantages(groupRewards(batch), options.scaleRewards).flat();
  const weights = grpoTokenWeights(
    sequences.map((s) => countedTokens(s.ids.length - s.completionStart, s.mask)),
    grpo,
  );
  const all: GrpoLossSequence[] = [];
  let entropySum = 0;
  for (const [start, end] of microBatches(sequences, micro)) {
    options.signal?.throwIfAborted();
    const part = sequences.slice(start, end);
    const scores = await policy.forward(part, temperature);
    const ref = grpo.beta > 0 ? await policy.referenceLogprobs(part, temperature) : undefined;
    const lossInputs = part.map((s, i): GrpoLossSequence => ({
      logprobs: scores.logprobs[i],
      advantage: advantages[start + i],
      ...(s.oldLogprobs ? { oldLogprobs: s.oldLogprobs } : {}),
      ...(ref ? { refLogprobs: ref[i] } : {}),
      ...(s.mask ? { mask: s.mask } : {}),
    }));
    const { dlogprobs } = grpoLoss(lossInputs, grpo, weights.subarray(start, start + part.length));
    await policy.backward(dlogprobs);
    all.push(...lossInputs);
    scores.entropy.forEach((e, i) => {
      for (let t = 0; t < e.length; t++) if (part[i].mask?.[t] !== 0) entropySum += e[t];
    });
  }
  const whole = grpoLoss(all, grpo, weights);
  const applied = await policy.applyGradients();
  return {
    ...(applied.applied ? {} : { skipped: applied.reason ?? 'the gradient was not finite' }),
    loss: whole.loss,
    gradNorm: applied.gradNorm,
    clipRatio: whole.clipRatio,
    ...(whole.kl === undefined ? {} : { kl: whole.kl }),
    entropy: entropySum / whole.tokens,
    tokens: whole.tokens,
    lr: applied.lr,
    step: applied.step,
    timeMs: performance.now() - started,
  };
}

/** [start, end) slices of at most `micro` sequences, each within one group. */
export function microBatches(sequences: readonly GrpoSequence[], micro: number): [number, number][] {
  const slices: [number, number][] = [];
  for (let start = 0; start < sequences.length;) {
    let end = start + 1;
    while (end < sequences.length && end - start < micro && sequences[end].group === sequences[start].group) end++;
    slices.push([start, end]);
    start = end;
  }
  return slices;
}

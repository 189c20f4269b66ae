/**
 * What one GRPO step reports, one flat object (a line of metrics.jsonl): the reward and each of its
 * components on its own (correctness, format, dollars), what the plans did (length, workers chosen,
 * tokens), and the update's own figures (loss, KL, entropy, clip fraction, grad norm).
 * Rollout means are over the scored completions; infrastructure failures are only counted.
 * Test: test/unit/core/rl/grpo-loop.test.ts.
 */
import type { Episode } from '../episodes/index.ts';
import { sampleStd } from './advantages.ts';
import type { RolloutGroup } from './rollout.ts';
import type { TrainStepResult } from './trainable-policy.ts';

export interface GrpoStepMetrics {
  step: number;
  questions: number;
  /** Completions scored and trained on. */
  completions: number;
  /** Completions left out (infrastructure failures, ungradable runs). */
  excluded: number;
  rewardMean: number;
  /** Sample std over every scored completion of the step. */
  rewardStd: number;
  /** Share graded correct (the correctness component). */
  accuracy: number;
  /** Share whose workflow parsed (the format component). */
  formatRate: number;
  /** Mean dollars of a completion's worker calls (the cost component). */
  costUsd: number;
  /** Mean Conductor tokens per completion. */
  conductorTokens: number;
  /** Mean worker tokens (input + output) per completion. */
  workerTokens: number;
  /** Mean steps of the workflows that parsed. */
  workflowLength: number;
  /** workerChoices[i]: steps given to worker i of the pool (not of a question's randomised view) over the step's workflows. */
  workerChoices: number[];
  /**
   * With every plan (whose groups hold each worker once, so workerChoices says nothing of the policy): choiceShares[i]
   * is the policy's probability of choosing pool worker i, the softmax over a group's plans of each plan's logprobs
   * where the Conductor had a choice, averaged over the step's questions.
   */
  choiceShares?: number[];
  /** Loss, KL and entropy of the first of the step's updates: at the weights that sampled the batch. */
  loss?: number;
  kl?: number;
  entropy?: number;
  /** TRL's clip_ratio/region_mean, the mean over the step's mu updates (as gradNorm). */
  clipRatio?: number;
  gradNorm?: number;
  lr?: number;
  /** Why no update was applied (no scored completion, or a non-finite gradient). */
  skipped?: string;
  /** Held-out accuracy after this step, when it was measured. */
  heldOutAccuracy?: number;
  /** Dollars paid for the step's calls (an identical call once): scored and excluded rollouts and the held-out evaluation. */
  spentUsd: number;
  /** Conductor tokens trained on per second of the update. */
  trainTokensPerSecond?: number;
  /** Wall time of the whole step (rollouts, update, evaluation), ms. */
  timeMs: number;
}

/** The held-out evaluation after a step. */
export interface HeldOut {
  accuracy: number;
  costUsd: number;
}

/**
 * Dollars paid for the episodes' calls (workers, and the Conductor where it bills): a step served from the
 * response cache was paid by the call that fetched it, so it adds nothing here, though its workflow's
 * cost term still counts it. Unknown prices count 0.
 */
export function dollarsOf(episodes: readonly Episode[]): number {
  let usd = 0;
  for (const e of episodes) {
    for (const round of [e, ...e.rounds]) {
      usd += round.completion.costUsd ?? 0;
      for (const s of round.steps) if (!s.fromCache) usd += s.costUsd ?? 0;
    }
  }
  return usd;
}

const mean = (values: readonly number[]) => (values.length === 0 ? 0 : values.reduce((a, b) => a + b, 0) / values.length);

export function stepMetrics(
  step: number,
  groups: readonly RolloutGroup[],
  /** views[g][i]: the pool index of group g's model id i. */
  views: readonly (readonly number[])[],
  workers: number,
  /** The step's updates on its batch (mu of them; none when nothing was scored). */
  updates: readonly TrainStepResult[],
  heldOut: HeldOut | undefined,
  timeMs: number,
): GrpoStepMetrics {
  const samples = groups.flatMap((g) => g.samples);
  const episodes = samples.map((s) => s.episode);
  const workflows = episodes.flatMap((e) => (e.workflow ? [e.workflow] : []));
  const workerChoices = new Array<number>(workers).fill(0);
  groups.forEach((g, i) => {
    for (const s of g.samples) for (const step of s.episode.workflow?.steps ?? []) workerChoices[views[i][step.worker]]++;
  });
  const shares = groups.length > 0 && groups.every((g) => g.everyPlan) ? choiceShares(groups, views, workers) : undefined;
  const [first] = updates;
  const skipped = updates.find((u) => u.skipped)?.skipped;
  // Loss, KL and entropy at the weights that sampled (the first update); clipping and gradient norm over all mu.
  const update = first
    ? {
        loss: first.loss,
        ...(first.kl === undefined ? {} : { kl: first.kl }),
        entropy: first.entropy,
        clipRatio: mean(updates.map((u) => u.clipRatio.regionMean)),
        gradNorm: mean(updates.map((u) => u.gradNorm)),
        lr: updates[updates.length - 1].lr,
        ...(skipped ? { skipped } : {}),
        trainTokensPerSecond: updates.reduce((n, u) => n + u.tokens, 0) / (updates.reduce((t, u) => t + u.timeMs, 0) / 1000),
      }
    : { skipped: 'no completion was scored' };
  return {
    step,
    questions: groups.length,
    completions: samples.length,
    excluded: groups.reduce((n, g) => n + g.excluded.length, 0),
    rewardMean: mean(samples.map((s) => s.reward)),
    rewardStd: sampleStd(samples.map((s) => s.reward)),
    accuracy: mean(samples.map((s) => s.components.correct)),
    formatRate: mean(samples.map((s) => s.components.format)),
    costUsd: mean(samples.map((s) => s.components.costUsd)),
    conductorTokens: mean(samples.map((s) => s.completion.tokens.length)),
    workerTokens: mean(episodes.map((e) => e.totals.usage.input + e.totals.usage.output)),
    workflowLength: mean(workflows.map((w) => w.steps.length)),
    workerChoices,
    ...(shares ? { choiceShares: shares } : {}),
    ...update,
    ...(heldOut ? { heldOutAccuracy: heldOut.accuracy } : {}),
    spentUsd: dollarsOf(groups.flatMap((g) => [...g.samples.map((s) => s.episode), ...g.excluded])) + (heldOut?.costUsd ?? 0),
    timeMs,
  };
}

/** Each plan's logprob where the Conductor chose (its mask; every token without one), softmaxed over its group, averaged by pool worker. */
function choiceShares(groups: readonly RolloutGroup[], views: readonly (readonly number[])[], workers: number): number[] {
  const shares = new Array<number>(workers).fill(0);
  groups.forEach((g, i) => {
    const chosen = g.samples.map((s) => s.completion.logprobs.reduce((sum, lp, t) => sum + (s.mask ? s.mask[t] * lp : lp), 0));
    const top = Math.max(...chosen);
    const weights = chosen.map((lp) => Math.exp(lp - top));
    const total = weights.reduce((a, b) => a + b, 0);
    g.samples.forEach((s, k) => {
      const worker = s.episode.workflow?.steps[0]?.worker;
      if (worker !== undefined) shares[views[i][worker]] += weights[k] / total / groups.length;
    });
  });
  return shares;
}

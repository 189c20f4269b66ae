/**
 * A GRPO training run's recipe, whichever host runs it: what trains (a new LoRA adapter's shape, or every
 * weight), the loop's numbers, the update's loss options, and the format the Conductor is prompted and
 * sampled in. `baton train` stores it, with its own fields beside it, as OUT/config.json (so the field
 * names are its); the Train page maps its stored settings onto it (services/trainer's recipeOf). From it
 * come runGrpo's and runOfflineGrpo's configs and the conductor.json kept with what was trained;
 * training-session.ts sets the run up from it. Test: test/unit/core/rl/training/recipe.test.ts.
 */
import type { ProviderConcurrency } from '../../orchestra/index.ts';
import { PAPER_REWARD } from '../../reward/index.ts';
import type { Task } from '../../task.ts';
import type { RewardScaling } from '../advantages.ts';
import type { GrpoConfig } from '../grpo-loop.ts';
import type { GrpoLossType } from '../grpo-loss.ts';
import type { OfflineGrpoConfig } from '../offline-grpo.ts';
import { trainedPrompt, type TrainedFormat } from '../trained-format.ts';

export interface TrainingRecipe {
  /** A new adapter's rank, alpha and target modules (used unless the host starts from a stored adapter, or with `full`). */
  lora: { r: number; alpha: number; targets: string[] };
  /** Every weight trains (f32 master weights), not a LoRA adapter. */
  full?: boolean;
  /** Optimiser steps; offline, 0 means one pass over the stored groups. */
  steps: number;
  /** Questions per step (Q); offline, stored groups per step. */
  questions: number;
  /** Plans sampled per question (G). */
  group: number;
  /** Each question's group is every one-step plan, one per worker, instead of `group` samples (a routing Conductor: constrain, fixed subtasks, one step). */
  everyPlan?: boolean;
  /** Randomised pools: each training question sees this many workers, shuffled (absent: all, in order). */
  poolSize?: number;
  /** Updates on each step's batch (TRL's num_iterations). */
  mu: number;
  lr: number;
  /** KL coefficient against the base without the adapter. */
  beta: number;
  epsilon: number;
  epsilonHigh: number;
  lossType: GrpoLossType;
  scaleRewards: RewardScaling;
  temperature: number;
  maxCompletionTokens: number;
  /** Sampled under the workflow constraint: the lists alone. */
  constrain: boolean;
  maxSubtaskChars?: number;
  /** Every subtask a fixed text (with constrain): the Conductor learns routing alone. */
  fixedSubtasks?: boolean;
  prompt: 'ask' | 'compact';
  /** With the compact prompt: the question's first this many characters (absent: all). */
  questionChars?: number;
  /** Most steps per workflow. */
  maxSteps: number;
  /** lambda of the cost-aware reward: minus lambda x the workflow's dollars. */
  costWeight: number;
  budgetUsd?: number;
  /** Calls in flight per provider, over core/orchestra's defaults. */
  concurrency?: ProviderConcurrency;
  /** false: every worker call is sent (absent, as in runs made before the cache: on). */
  responseCache?: boolean;
  /** Recursion rounds after the first. */
  recursion?: number;
  /** d of the recursion reward (1 - d) r0 + d r1. */
  recursionMix?: number;
  /** Held-out accuracy every this many steps (0: never). */
  evalEvery: number;
  /** Held-out questions evaluated, the kinds taking turns (absent: every one, in order). */
  heldOutSample?: number;
  checkpointEvery: number;
  /** Sequences per forward/backward pass (a micro-batch never spans two groups). */
  microBatch: number;
  seed: number;
}

/** What `baton train` takes where it is not told (TRL's GRPOConfig's where it has one); the Train page too, for what it has no field for. */
export const TRAINING_DEFAULTS = {
  mu: 1,
  beta: 0,
  epsilon: 0.2,
  lossType: 'bnpo',
  scaleRewards: 'group',
  temperature: 1,
  costWeight: 0,
  /** PEFT's default for Qwen and Llama. */
  loraTargets: ['q_proj', 'v_proj'],
} as const satisfies Partial<TrainingRecipe> & { loraTargets: readonly string[] };

/** How the run prompts and samples its Conductor, kept beside what it trains (conductor.json) for whoever runs it. */
export function trainedFormatOf(r: TrainingRecipe): TrainedFormat {
  return {
    prompt: r.prompt,
    constrain: r.constrain,
    maxSteps: r.maxSteps,
    ...(r.fixedSubtasks ? { fixedSubtasks: true } : {}),
    ...(r.maxSubtaskChars === undefined ? {} : { maxSubtaskChars: r.maxSubtaskChars }),
    ...(r.questionChars === undefined ? {} : { questionChars: r.questionChars }),
    // Rollouts decode the fixed text by jump-forward: whoever runs the Conductor must do the same.
    ...(r.constrain ? { jumpForward: true } : {}),
  };
}

/** The update of every step: GRPO's loss options, reward scaling and micro-batch size. */
function grpoUpdateOf(r: TrainingRecipe): GrpoConfig['train'] {
  return {
    grpo: { beta: r.beta, epsilonLow: r.epsilon, epsilonHigh: r.epsilonHigh, lossType: r.lossType, maxCompletionLength: r.maxCompletionTokens },
    scaleRewards: r.scaleRewards,
    microBatchSize: r.microBatch,
  };
}

/** runGrpo's config; `conductorModel` names the Conductor in the episodes. */
export function grpoConfigOf(r: TrainingRecipe, conductorModel: string): GrpoConfig {
  return {
    steps: r.steps,
    questionsPerStep: r.questions,
    groupSize: r.group,
    ...(r.everyPlan ? { everyPlan: true } : {}),
    iterations: r.mu,
    ...(r.poolSize === undefined ? {} : { poolSize: r.poolSize }),
    maxCompletionTokens: r.maxCompletionTokens,
    temperature: r.temperature,
    train: grpoUpdateOf(r),
    seed: r.seed,
    maxSteps: r.maxSteps,
    prompt: trainedPrompt(trainedFormatOf(r)),
    rewardScheme: { ...PAPER_REWARD, costWeight: r.costWeight },
    evalEvery: r.evalEvery,
    ...(r.budgetUsd === undefined ? {} : { budgetUsd: r.budgetUsd }),
    checkpointEvery: r.checkpointEvery,
    conductorModel,
    ...(r.concurrency ? { concurrency: r.concurrency } : {}),
    ...(r.responseCache === false ? { responseCache: false } : {}),
    ...(r.recursion ? { recursionDepth: r.recursion } : {}),
    ...(r.recursionMix === undefined ? {} : { recursionMix: r.recursionMix }),
  };
}

/** runOfflineGrpo's config over `groups` stored groups: steps 0 is one pass over them. */
export function offlineGrpoConfigOf(r: TrainingRecipe, groups: number): OfflineGrpoConfig {
  return {
    steps: r.steps || Math.ceil(groups / r.questions),
    groupsPerStep: r.questions,
    iterations: r.mu,
    train: { ...grpoUpdateOf(r), temperature: r.temperature },
    seed: r.seed,
    checkpointEvery: r.checkpointEvery,
  };
}

/** The held-out questions evaluated: `n` of them, the kinds taking turns, so each is measured; all, in order, without `n`. */
export function heldOutSample(heldOut: readonly Task[], n?: number): Task[] {
  if (n === undefined) return [...heldOut];
  const kinds = [...new Set(heldOut.map((t) => t.kind))];
  const byKind = kinds.map((kind) => heldOut.filter((t) => t.kind === kind));
  const picked: Task[] = [];
  for (let i = 0; picked.length < Math.min(n, heldOut.length); i++) for (const kind of byKind) if (i < kind.length && picked.length < n) picked.push(kind[i]);
  return picked;
}

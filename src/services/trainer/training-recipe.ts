/**
 * The Train page's settings as core/rl's training recipe: the page's fields; baton train's defaults
 * (TRAINING_DEFAULTS) where the page has none; and the tab's fixed choices: a new adapter of rank r and
 * alpha 2r on the default modules, the compact prompt, format-constrained sampling, one group a micro-batch.
 */
import { TRAINING_DEFAULTS, type TrainingRecipe } from '../../core/rl/index.ts';
import type { TrainingConfig } from './api.ts';

export function recipeOf(config: TrainingConfig): TrainingRecipe {
  const { mu, beta, epsilon, lossType, scaleRewards, temperature, costWeight, loraTargets } = TRAINING_DEFAULTS;
  return {
    lora: { r: config.r, alpha: 2 * config.r, targets: [...loraTargets] },
    steps: config.steps,
    questions: config.questions,
    group: config.group,
    ...(config.everyPlan ? { everyPlan: true } : {}),
    mu,
    lr: config.lr,
    beta,
    epsilon,
    epsilonHigh: epsilon,
    lossType,
    // A group's dollars differ by fractions of a cent: scaled by the group's spread they would weigh as much as a right answer.
    scaleRewards: config.costWeight ? 'none' : scaleRewards,
    temperature,
    maxCompletionTokens: config.maxCompletionTokens,
    constrain: true,
    ...(config.fixedSubtasks ? { fixedSubtasks: true } : { maxSubtaskChars: config.maxSubtaskChars }),
    prompt: 'compact',
    maxSteps: config.maxSteps,
    costWeight: config.costWeight ?? costWeight,
    ...(config.concurrency ? { concurrency: config.concurrency } : {}),
    ...(config.responseCache === false ? { responseCache: false } : {}),
    ...(config.recursionDepth ? { recursion: config.recursionDepth } : {}),
    evalEvery: config.evalEvery,
    heldOutSample: config.heldOut,
    checkpointEvery: config.checkpointEvery,
    microBatch: config.group,
    seed: config.seed,
  };
}

/** A recipe whose every number differs from the defaults, so a test sees which one reached where. */
import type { TrainingRecipe } from '../../../../../src/core/rl/index.ts';

export const RECIPE: TrainingRecipe = {
  lora: { r: 4, alpha: 8, targets: ['q_proj', 'v_proj'] },
  steps: 10,
  questions: 3,
  group: 4,
  mu: 2,
  lr: 1e-3,
  beta: 0.04,
  epsilon: 0.2,
  epsilonHigh: 0.28,
  lossType: 'dr_grpo',
  scaleRewards: 'none',
  temperature: 0.9,
  maxCompletionTokens: 40,
  constrain: true,
  prompt: 'compact',
  maxSteps: 2,
  costWeight: 0.5,
  evalEvery: 5,
  checkpointEvery: 2,
  microBatch: 4,
  seed: 7,
};

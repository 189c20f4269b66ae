import { describe, expect, it } from 'vitest';
import { EXPERTS_POOL } from '../../../../src/core/providers/simulated/index.ts';
import { grpoConfigOf, TRAINING_DEFAULTS, trainedFormatOf } from '../../../../src/core/rl/index.ts';
import { DEFAULT_TRAINING, recipeOf, type TrainingConfig } from '../../../../src/services/trainer/index.ts';

const config: TrainingConfig = { ...DEFAULT_TRAINING, pool: [...EXPERTS_POOL], r: 16, group: 6, heldOut: 5 };

describe("the Train page's recipe", () => {
  it("is baton train's where the page has no field: a new adapter of alpha 2r, one group a micro-batch, the held-out sample the page asks for", () => {
    expect(recipeOf(config)).toMatchObject({
      lora: { r: 16, alpha: 32, targets: [...TRAINING_DEFAULTS.loraTargets] },
      mu: 1,
      beta: 0,
      epsilon: 0.2,
      epsilonHigh: 0.2,
      lossType: 'bnpo',
      scaleRewards: 'group',
      temperature: 1,
      costWeight: 0,
      microBatch: 6,
      heldOutSample: 5,
    });
    expect(grpoConfigOf(recipeOf({ ...config, recursionDepth: 2 }), 'demo').recursionDepth).toBe(2);
    expect(grpoConfigOf(recipeOf({ ...config, maxSteps: 1, everyPlan: true }), 'demo').everyPlan).toBe(true);
    expect(grpoConfigOf(recipeOf(config), 'demo').everyPlan).toBeUndefined();
  });

  it('trains on the compact prompt under the constraint, with fixed subtasks (the default) or subtasks of a bounded length', () => {
    expect(trainedFormatOf(recipeOf(config))).toEqual({
      prompt: 'compact',
      constrain: true,
      maxSteps: config.maxSteps,
      fixedSubtasks: true,
      jumpForward: true,
    });
    expect(trainedFormatOf(recipeOf({ ...config, fixedSubtasks: false }))).toEqual({
      prompt: 'compact',
      constrain: true,
      maxSteps: config.maxSteps,
      maxSubtaskChars: config.maxSubtaskChars,
      jumpForward: true,
    });
  });
});

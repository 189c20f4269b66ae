import { describe, expect, it } from 'vitest';
import { EXPERTS_POOL } from '../../../../src/core/providers/simulated/index.ts';
import { trainSettingsOf } from '../../../../src/services/trainer/train-bundle-export.ts';
import { DEFAULT_TRAINING, type TrainingConfig } from '../../../../src/services/trainer/api.ts';

const config: TrainingConfig = { ...DEFAULT_TRAINING, pool: [...EXPERTS_POOL] };

describe("the Train page's run as baton train's flags", () => {
  it('writes fixed subtasks as --subtasks fixed, and free ones as their length', () => {
    expect(trainSettingsOf({ ...config, fixedSubtasks: true })).toMatchObject({ subtasks: 'fixed', constrain: true, prompt: 'compact' });
    expect(trainSettingsOf({ ...config, fixedSubtasks: true })).not.toHaveProperty('max-subtask-chars');
    const free = trainSettingsOf({ ...config, fixedSubtasks: false, maxSubtaskChars: 9 });
    expect(free).toMatchObject({ 'max-subtask-chars': 9 });
    expect(free).not.toHaveProperty('subtasks');
  });

  it('asks for every plan where the page does, and not otherwise', () => {
    expect(trainSettingsOf({ ...config, fixedSubtasks: true, maxSteps: 1, everyPlan: true })).toMatchObject({ 'every-plan': true, 'max-steps': 1 });
    expect(trainSettingsOf(config)).not.toHaveProperty('every-plan');
  });

  it('carries recursion, the calls in flight per provider and a switched-off cache', () => {
    expect(trainSettingsOf({ ...config, recursionDepth: 2, concurrency: { openai: 4, simulated: 2 }, responseCache: false })).toMatchObject({
      recursion: 2,
      concurrency: 'openai=4,simulated=2',
      'no-cache': true,
    });
    expect(trainSettingsOf(config)).not.toHaveProperty('no-cache');
  });
});

import { describe, expect, it } from 'vitest';
import { PAPER_REWARD } from '../../../../../src/core/reward/index.ts';
import { askPrompt, compactPrompt, grpoConfigOf, heldOutSample, offlineGrpoConfigOf, trainedFormatOf } from '../../../../../src/core/rl/index.ts';
import type { Task, TaskKind } from '../../../../../src/core/task.ts';
import { RECIPE } from './recipe-fixture.ts';

const task = (kind: TaskKind, i: number): Task => ({ question: `${kind} ${i}`, answer: '1', kind });

describe('a training recipe', () => {
  it('keeps the format it trains in, with only the subtask options it sets', () => {
    expect(trainedFormatOf(RECIPE)).toEqual({ prompt: 'compact', constrain: true, maxSteps: 2, jumpForward: true });
    expect(trainedFormatOf({ ...RECIPE, constrain: false }).jumpForward).toBeUndefined();
    expect(trainedFormatOf({ ...RECIPE, fixedSubtasks: true, maxSubtaskChars: 6 })).toEqual({
      prompt: 'compact',
      constrain: true,
      maxSteps: 2,
      fixedSubtasks: true,
      maxSubtaskChars: 6,
      jumpForward: true,
    });
  });

  it('gives runGrpo its numbers, loss options, prompt and cost-aware reward', () => {
    const config = grpoConfigOf({ ...RECIPE, recursion: 1, recursionMix: 0.5, responseCache: false, budgetUsd: 3, poolSize: 2 }, 'tiny');
    expect(config).toMatchObject({
      steps: 10,
      questionsPerStep: 3,
      groupSize: 4,
      iterations: 2,
      poolSize: 2,
      maxCompletionTokens: 40,
      temperature: 0.9,
      train: {
        grpo: { beta: 0.04, epsilonLow: 0.2, epsilonHigh: 0.28, lossType: 'dr_grpo', maxCompletionLength: 40 },
        scaleRewards: 'none',
        microBatchSize: 4,
      },
      seed: 7,
      maxSteps: 2,
      rewardScheme: { ...PAPER_REWARD, costWeight: 0.5 },
      evalEvery: 5,
      budgetUsd: 3,
      checkpointEvery: 2,
      conductorModel: 'tiny',
      responseCache: false,
      recursionDepth: 1,
      recursionMix: 0.5,
    });
    expect(config.prompt).toBe(compactPrompt);
    expect(grpoConfigOf({ ...RECIPE, prompt: 'ask' }, 'tiny').prompt).toBe(askPrompt);
    // Left out, each takes runGrpo's default.
    expect(grpoConfigOf(RECIPE, 'tiny')).not.toHaveProperty('responseCache');
    expect(grpoConfigOf(RECIPE, 'tiny')).not.toHaveProperty('recursionDepth');
  });

  it('takes one pass over stored groups offline when it has no step count, sampled at its temperature', () => {
    expect(offlineGrpoConfigOf({ ...RECIPE, steps: 0 }, 7)).toMatchObject({
      steps: 3,
      groupsPerStep: 3,
      iterations: 2,
      seed: 7,
      checkpointEvery: 2,
      train: { temperature: 0.9, microBatchSize: 4 },
    });
    expect(offlineGrpoConfigOf(RECIPE, 7).steps).toBe(10);
  });

  it('samples held-out questions with the kinds taking turns, or keeps them all in order', () => {
    const heldOut = [task('mcq', 0), task('mcq', 1), task('mcq', 2), task('number', 0)];
    expect(heldOutSample(heldOut, 3).map((t) => t.question)).toEqual(['mcq 0', 'number 0', 'mcq 1']);
    expect(heldOutSample(heldOut, 10)).toHaveLength(4);
    expect(heldOutSample(heldOut)).toEqual(heldOut);
  });
});

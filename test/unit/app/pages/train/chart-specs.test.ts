import { expect, test } from 'vitest';
import { CHARTS, chartColumns } from '../../../../../src/app/pages/train/chart-specs.ts';
import type { GrpoStepMetrics } from '../../../../../src/core/rl/index.ts';

const step = (n: number, extra: Partial<GrpoStepMetrics> = {}): GrpoStepMetrics => ({
  step: n,
  questions: 2,
  completions: 4,
  excluded: 0,
  rewardMean: 0.5 + n / 10,
  rewardStd: 0.25,
  accuracy: 0.5,
  formatRate: 1,
  costUsd: 0.001 * n,
  conductorTokens: 30,
  workerTokens: 200,
  workflowLength: 1.5,
  workerChoices: [1, 2, 0, 1],
  entropy: 2 - n / 10,
  gradNorm: 0.3,
  spentUsd: 0.004,
  timeMs: 1000,
  ...extra,
});

const spec = (id: string) => CHARTS.find((c) => c.id === id)!;

test('the reward chart draws the mean with its spread, step by step', () => {
  expect(chartColumns(spec('reward'), [step(1), step(2)])).toEqual([
    [1, 2],
    [0.6, 0.7],
    [0.85, 0.95],
    [0.35, 0.44999999999999996],
  ]);
});

test('figures a step lacks are gaps, not zeros', () => {
  const columns = chartColumns(spec('accuracy'), [step(1), step(2, { heldOutAccuracy: 0.75 })]);
  expect(columns).toEqual([
    [1, 2],
    [null, 0.75],
    [0.5, 0.5],
  ]);
  expect(chartColumns(spec('kl-entropy'), [step(3)])).toEqual([[3], [1.7], [null]]);
});

test('every chart the issue asks for is there', () => {
  expect(CHARTS.map((c) => c.id)).toEqual(['reward', 'accuracy', 'format', 'dollars', 'kl-entropy', 'grad-norm']);
});

test('the charts of shares span 0 to 1, and the others fit their values', () => {
  expect(CHARTS.filter((c) => c.range).map((c) => [c.id, c.range])).toEqual([
    ['accuracy', [0, 1]],
    ['format', [0, 1]],
  ]);
});

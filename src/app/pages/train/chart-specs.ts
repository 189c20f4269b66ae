/**
 * The Train page's live charts: which figures of each step (core/rl's GrpoStepMetrics) each one plots,
 * and the columns uPlot draws from. Pure; tested by test/unit/app/pages/train/chart-specs.test.ts.
 */
import type { GrpoStepMetrics } from '../../../core/rl/index.ts';

interface ChartSeries {
  label: string;
  /** undefined where the step has no such figure (held-out accuracy between evaluations, KL with beta 0). */
  value: (m: GrpoStepMetrics) => number | undefined;
  /** Drawn dashed: a bound rather than a figure of its own. */
  dashed?: boolean;
}

export interface ChartSpec {
  id: string;
  title: string;
  series: ChartSeries[];
  /** The value axis's fixed span, for a share (0 to 1); absent: fitted to the values. */
  range?: [number, number];
}

export const CHARTS: readonly ChartSpec[] = [
  {
    id: 'reward',
    title: 'Reward, mean ± std',
    series: [
      { label: 'mean', value: (m) => m.rewardMean },
      { label: 'mean + std', value: (m) => m.rewardMean + m.rewardStd, dashed: true },
      { label: 'mean − std', value: (m) => m.rewardMean - m.rewardStd, dashed: true },
    ],
  },
  {
    id: 'accuracy',
    title: 'Accuracy',
    range: [0, 1],
    series: [
      { label: 'held-out', value: (m) => m.heldOutAccuracy },
      { label: 'sampled', value: (m) => m.accuracy },
    ],
  },
  { id: 'format', title: 'Format rate', range: [0, 1], series: [{ label: 'parsed', value: (m) => m.formatRate }] },
  { id: 'dollars', title: 'Dollars per question', series: [{ label: '$ per workflow', value: (m) => m.costUsd }] },
  {
    id: 'kl-entropy',
    title: 'KL and entropy',
    series: [
      { label: 'entropy', value: (m) => m.entropy },
      { label: 'KL', value: (m) => m.kl },
    ],
  },
  { id: 'grad-norm', title: 'Gradient norm', series: [{ label: 'grad norm', value: (m) => m.gradNorm }] },
];

/** uPlot's columns: the steps, then one column per series, null where a step has no value. */
export function chartColumns(spec: ChartSpec, metrics: readonly GrpoStepMetrics[]): [number[], ...(number | null)[][]] {
  return [metrics.map((m) => m.step), ...spec.series.map((s) => metrics.map((m) => s.value(m) ?? null))];
}

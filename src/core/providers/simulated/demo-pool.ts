import type { WorkerSpec } from '../types.ts';

/**
 * A pool where the workflow matters, for demos and tests with no keys:
 * - 0 is strong at math and weak at multiple choice, 1 the reverse, so the best single worker depends on
 *   the kind of question;
 * - 2 is cheap and a poor solver but a good verifier, so "solve, then let 2 check" beats any single call;
 * - 3 is fair at everything and costs ten times more: a safe but poor single choice.
 * test/unit/core/providers/simulated/demo-pool.test.ts measures the resulting accuracies.
 */
export const DEMO_POOL: readonly WorkerSpec[] = [
  {
    id: 'sim-euler',
    provider: 'simulated',
    model: 'euler',
    label: 'Euler (math)',
    price: { input: 0.5, output: 1.5 },
    simulated: {
      skill: { default: 0.5, math: 0.85, gsm8k: 0.88, number: 0.88, mcq: 0.4 },
      confirmRight: 0.9,
      fixWrong: 0.25,
      latencyMs: 900,
      outputTokens: 350,
    },
  },
  {
    id: 'sim-sage',
    provider: 'simulated',
    model: 'sage',
    label: 'Sage (knowledge)',
    price: { input: 0.5, output: 1.5 },
    simulated: {
      skill: { default: 0.5, math: 0.35, gsm8k: 0.5, number: 0.5, mcq: 0.85 },
      confirmRight: 0.9,
      fixWrong: 0.25,
      latencyMs: 700,
      outputTokens: 250,
    },
  },
  {
    id: 'sim-scout',
    provider: 'simulated',
    model: 'scout',
    label: 'Scout (cheap verifier)',
    price: { input: 0.05, output: 0.2 },
    simulated: {
      skill: { default: 0.3, math: 0.25, gsm8k: 0.35, number: 0.35, mcq: 0.35 },
      confirmRight: 0.97,
      fixWrong: 0.7,
      latencyMs: 300,
      outputTokens: 150,
    },
  },
  {
    id: 'sim-atlas',
    provider: 'simulated',
    model: 'atlas',
    label: 'Atlas (strong, expensive)',
    price: { input: 5, output: 15 },
    simulated: {
      skill: { default: 0.7, math: 0.65, gsm8k: 0.75, number: 0.75, mcq: 0.7 },
      confirmRight: 0.95,
      fixWrong: 0.45,
      latencyMs: 1500,
      outputTokens: 500,
    },
  },
];

import type { WorkerSpec } from '../types.ts';

const ARITHMETIC = ['math', 'gsm8k', 'number'] as const;
const forArithmetic = (p: number) => Object.fromEntries(ARITHMETIC.map((k) => [k, p]));

/**
 * A pool where the workflow matters, for demos, the demo Conductor's training and tests with no keys
 * (the best fixed workflow falls well short of the best one per kind, so a Conductor has something to learn):
 * - 0 is strong at arithmetic and weak at multiple choice, 1 the reverse, so the best single worker
 *   depends on the kind of question;
 * - 2 is cheap and a poor solver, but checks arithmetic well: "0 solves, 2 checks" is the best plan for
 *   a sum, and the worst idea for multiple choice, where 2 talks itself out of right answers;
 * - 3 is fair at everything and costs ten times more: a safe but poor single choice, and a second
 *   opinion that seldom repairs a wrong answer, so no chain of checks washes out the first choice.
 * Every checker keeps most right answers and repairs few wrong ones unless it is an expert of the kind.
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
      skill: { default: 0.5, math: 0.8, gsm8k: 0.85, number: 0.85, mcq: 0.25 },
      confirmRight: 0.9,
      fixWrong: { default: 0.1, ...forArithmetic(0.3) },
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
      skill: { default: 0.5, math: 0.3, gsm8k: 0.3, number: 0.3, mcq: 0.9 },
      confirmRight: 0.9,
      fixWrong: { default: 0.1, mcq: 0.3 },
      latencyMs: 700,
      outputTokens: 250,
    },
  },
  {
    id: 'sim-scout',
    provider: 'simulated',
    model: 'scout',
    label: 'Scout (cheap arithmetic checker)',
    price: { input: 0.05, output: 0.2 },
    simulated: {
      skill: { default: 0.3 },
      confirmRight: { default: 0.5, ...forArithmetic(0.98) },
      fixWrong: { default: 0.05, ...forArithmetic(0.6) },
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
      skill: { default: 0.6 },
      confirmRight: 0.9,
      fixWrong: 0.2,
      latencyMs: 1500,
      outputTokens: 500,
    },
  },
];

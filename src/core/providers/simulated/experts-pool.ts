import type { SimulatedBehaviour, WorkerSpec } from '../types.ts';

/** Checkers that seldom repair a wrong answer: a second step cannot wash out which worker went first. */
const WEAK_CHECKER: Pick<SimulatedBehaviour, 'confirmRight' | 'fixWrong' | 'latencyMs' | 'outputTokens'> = {
  confirmRight: 0.8,
  fixWrong: 0.1,
  latencyMs: 0,
  outputTokens: 120,
};

/**
 * A pool where only routing by kind works, for training runs (docs/learning.md): worker 0 is
 * right 93% of the time on multiple choice and 20% on arithmetic (GSM8K), worker 3 the reverse, 1 and 2
 * weak generalists. No fixed workflow serves both kinds, so the best per kind beats the best fixed
 * one by far (test/unit/core/providers/simulated/experts-pool.test.ts measures it). No latency: a
 * training step runs hundreds of these calls.
 */
export const EXPERTS_POOL: readonly WorkerSpec[] = [
  {
    id: 'sim-scholar',
    provider: 'simulated',
    model: 'scholar',
    label: 'Scholar (multiple choice)',
    price: { input: 1, output: 3 },
    simulated: { skill: { default: 0.5, mcq: 0.93, gsm8k: 0.2, number: 0.2 }, ...WEAK_CHECKER },
  },
  {
    id: 'sim-gen-a',
    provider: 'simulated',
    model: 'generalist-a',
    label: 'Generalist A',
    price: { input: 0.3, output: 1 },
    simulated: { skill: { default: 0.4, mcq: 0.45, gsm8k: 0.4, number: 0.4 }, ...WEAK_CHECKER },
  },
  {
    id: 'sim-gen-b',
    provider: 'simulated',
    model: 'generalist-b',
    label: 'Generalist B',
    price: { input: 0.3, output: 1 },
    simulated: { skill: { default: 0.4, mcq: 0.4, gsm8k: 0.45, number: 0.45 }, ...WEAK_CHECKER },
  },
  {
    id: 'sim-reckoner',
    provider: 'simulated',
    model: 'reckoner',
    label: 'Reckoner (arithmetic)',
    price: { input: 1, output: 3 },
    simulated: { skill: { default: 0.5, mcq: 0.2, gsm8k: 0.93, number: 0.93 }, ...WEAK_CHECKER },
  },
];

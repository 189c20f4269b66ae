import { describe, expect, it } from 'vitest';
import {
  lambdaForShare,
  perGroupRouting,
  randomRoutingAccuracy,
  routingOutcomes,
  routingPoint,
  singleWorkerPoints,
  type RoutingOutcomes,
} from '../../../../../src/core/bench/index.ts';
import { createReplayWorker } from '../../../../../src/core/providers/replay/replay-chat-model.ts';
import { parseRouteLlmCsv } from '../../../../../src/core/providers/replay/index.ts';
import type { Task } from '../../../../../src/core/task.ts';

const o = (correct: boolean, costUsd: number) => ({ correct, costUsd });

/**
 * Worker 0 is dear (1 cent a question), worker 1 cheap (0.1 cent). In "law" the dear one is right 3 times
 * out of 4 and the cheap one once (gain 2 for 3 cents more); in "math" both are right 3 times out of 4.
 */
const outcomes: RoutingOutcomes = {
  group: ['law', 'law', 'law', 'law', 'math', 'math', 'math', 'math'],
  outcomes: [
    [o(true, 0.01), o(true, 0.01), o(true, 0.01), o(false, 0.01), o(true, 0.01), o(true, 0.01), o(true, 0.01), o(false, 0.01)],
    [o(true, 0.001), o(false, 0.001), o(false, 0.001), o(false, 0.001), o(true, 0.001), o(true, 0.001), o(false, 0.001), o(true, 0.001)],
  ],
};

describe('cost routing baselines', () => {
  it('scores a routing by accuracy, share of the strong worker and dollars', () => {
    const p = routingPoint(outcomes, [0, 0, 0, 0, 1, 1, 1, 1], 0);
    expect([p.accuracy, p.strongShare]).toEqual([6 / 8, 0.5]);
    expect(p.dollarsPerQuestion).toBeCloseTo((0.04 + 0.004) / 8, 12);
    expect(singleWorkerPoints(outcomes, 0).map((p) => [p.accuracy, p.strongShare])).toEqual([
      [6 / 8, 1],
      [4 / 8, 0],
    ]);
  });

  it('routes each group by its reward correct - lambda x dollars', () => {
    // law: gain 2 for 0.036 more dollars, break-even at lambda 55.6; math: no gain, so the cheap worker once lambda > 0.
    expect(perGroupRouting(outcomes, 0).byGroup).toEqual({ law: 0, math: 1 });
    expect(perGroupRouting(outcomes, 10).byGroup).toEqual({ law: 0, math: 1 });
    expect(perGroupRouting(outcomes, 60).byGroup).toEqual({ law: 1, math: 1 });
    expect(perGroupRouting(outcomes, 10).choice).toEqual([0, 0, 0, 0, 1, 1, 1, 1]);
  });

  it('finds the smallest lambda that brings the strong share down to a target', () => {
    const half = lambdaForShare(outcomes, 0, 0.5);
    expect(routingPoint(outcomes, perGroupRouting(outcomes, half).choice, 0).strongShare).toBe(0.5);
    expect(half).toBe(0);
    const none = lambdaForShare(outcomes, 0, 0);
    expect(none).toBeCloseTo(2 / 0.036, 5);
    expect(perGroupRouting(outcomes, none * 0.999).byGroup.law).toBe(0);
    expect(() => lambdaForShare(outcomes, 1, 0)).toThrow(/not the dearer worker/);
  });

  it('gives random routing at a share the mixture of the strong worker and the others', () => {
    expect(randomRoutingAccuracy(outcomes, 0, 0.25)).toBeCloseTo(0.25 * 0.75 + 0.75 * 0.5, 12);
  });

  it('runs each worker alone on each task through the pool, at its price', async () => {
    const table = parseRouteLlmCsv('prompt,big,small\n"Pick one\nA. x\nB. y\nAnswer:",True,False\n"Pick two\nA. x\nB. y\nAnswer:",False,False\n');
    const tasks: Task[] = ['Pick one', 'Pick two'].map((q) => ({ question: `${q}\nA. x\nB. y`, answer: 'A', kind: 'mcq', choices: ['x', 'y'], itemId: q }));
    const pool = [
      createReplayWorker({ id: 'big', provider: 'replay', model: 'big', price: { input: 10, output: 30 } }, table),
      createReplayWorker({ id: 'small', provider: 'replay', model: 'small', price: { input: 0, output: 0 } }, table),
    ];
    const result = await routingOutcomes(tasks, pool, 'Solve the question.', (t) => t.itemId!);
    expect(result.group).toEqual(['Pick one', 'Pick two']);
    expect(result.outcomes.map((row) => row.map((x) => x.correct))).toEqual([
      [true, false],
      [false, false],
    ]);
    expect(result.outcomes[0][0].costUsd).toBeGreaterThan(0);
    expect(result.outcomes[1][0].costUsd).toBe(0);
  });
});

/** Two or three reports merged by method: the union of methods in first-seen order, a gap where one lacks a method, the best cell marked. */
import { expect, it } from 'vitest';
import { compareReports, type EvalReport, type MethodReport } from '../../../../../src/core/bench/index.ts';

const row = (method: string, accuracy: number): MethodReport => ({
  method,
  runs: 4,
  graded: 4,
  correct: Math.round(accuracy * 4),
  accuracy,
  stderr: 0.1,
  infraFailures: 0,
  ungraded: 0,
  malformedRate: 0,
  tokensPerQuestion: { conductor: 0, workers: 10 },
  costUsd: { total: 0, perQuestion: 0, unknownRuns: 0 },
  latencyMs: { p50: 1, p95: 2 },
  callsPerQuestion: 1,
});
const report = (id: string, ...methods: MethodReport[]): EvalReport => ({ evaluation: { id }, methods, pareto: [] });

it('merges reports by method, keeping each one in its own column', () => {
  const a = report('a', row('single:x', 0.5), row('oracle', 0.75));
  const b = report('b', row('random', 0.25), row('single:x', 0.75));
  const rows = compareReports([a, b]);
  expect(rows.map((r) => r.method)).toEqual(['single:x', 'oracle', 'random']);
  expect(rows[0].cells.map((c) => c?.accuracy)).toEqual([0.5, 0.75]);
  expect(rows[1].cells.map((c) => c?.accuracy)).toEqual([0.75, undefined]);
  expect(rows[2].cells.map((c) => c?.accuracy)).toEqual([undefined, 0.25]);
});

it('marks the most accurate evaluation of a method only where two or more can be compared', () => {
  const rows = compareReports([report('a', row('m', 0.5), row('n', NaN)), report('b', row('m', 0.25), row('n', 0.5)), report('c', row('m', 1))]);
  expect(rows.find((r) => r.method === 'm')?.best).toBe(2);
  // Only one finite accuracy for n: nothing to compare.
  expect(rows.find((r) => r.method === 'n')?.best).toBeUndefined();
});

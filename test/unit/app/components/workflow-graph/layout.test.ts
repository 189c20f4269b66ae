import { expect, test } from 'vitest';
import { layoutWorkflow, NODE_W, rows } from '../../../../../src/app/components/workflow-graph/layout.ts';
import type { Step } from '../../../../../src/core/workflow/types.ts';

const step = (access: Step['access'], worker = 0): Step => ({ worker, subtask: 's', access });

test('steps that see only the task share the first row; a step sits below what it sees', () => {
  expect(rows([step([]), step([]), step([0, 1])])).toEqual([0, 0, 1]);
  expect(rows([step([]), step('all'), step('all')])).toEqual([0, 1, 2]);
  expect(rows([step([]), step([]), step([1]), step([0])])).toEqual([0, 0, 1, 1]);
});

test('parallel steps are side by side, and edges follow the access lists', () => {
  const g = layoutWorkflow([step([]), step([]), step([0, 1])]);
  expect(g.nodes[0].y).toBe(g.nodes[1].y);
  expect(g.nodes[1].x - g.nodes[0].x).toBeGreaterThanOrEqual(NODE_W);
  expect(g.nodes[2].y).toBeGreaterThan(g.nodes[0].y);
  expect(g.width).toBeGreaterThanOrEqual(2 * NODE_W);
  expect(g.edges.map((e) => [e.from, e.to])).toEqual([
    [-1, 0],
    [-1, 1],
    [0, 2],
    [1, 2],
  ]);
});

test('"all" draws an edge from every earlier step; out-of-range indices draw none', () => {
  const g = layoutWorkflow([step([]), step([]), step('all'), step([7])]);
  expect(g.edges.filter((e) => e.to === 2).map((e) => e.from)).toEqual([0, 1]);
  expect(g.edges.filter((e) => e.to === 3).map((e) => e.from)).toEqual([-1]);
});

test('every node lies inside the drawing', () => {
  const g = layoutWorkflow([step([]), step([]), step([]), step('all'), step([3])]);
  for (const n of g.nodes) {
    expect(n.x).toBeGreaterThanOrEqual(0);
    expect(n.x + n.w).toBeLessThanOrEqual(g.width);
    expect(n.y + n.h).toBeLessThanOrEqual(g.height);
  }
});

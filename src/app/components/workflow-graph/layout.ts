/**
 * Where each step of a workflow goes in the graph. A step sits one row below the lowest step it sees, so
 * steps that see only the task (or only the same earlier steps) share a row: they can run in parallel.
 * Pure; tested by test/unit/app/components/workflow-graph/layout.test.ts.
 */
import type { Step } from '../../../core/workflow/index.ts';

export const NODE_W = 232;
const NODE_H = 132;
const TASK_H = 40;
const GAP_X = 24;
const GAP_Y = 48;

interface NodeBox {
  /** Step index, or -1 for the task node. */
  index: number;
  row: number;
  x: number;
  y: number;
  w: number;
  h: number;
}

interface Edge {
  from: number; // -1 = the task
  to: number;
  path: string;
}

interface GraphLayout {
  task: NodeBox;
  nodes: NodeBox[];
  edges: Edge[];
  width: number;
  height: number;
}

/** The earlier steps a step reads, as indices. */
function sources(step: Step, index: number): number[] {
  if (step.access === 'all') return Array.from({ length: index }, (_, i) => i);
  return step.access.filter((i) => i >= 0 && i < index);
}

export function rows(steps: Step[]): number[] {
  const row: number[] = [];
  steps.forEach((step, i) => {
    const from = sources(step, i);
    row.push(from.length === 0 ? 0 : Math.max(...from.map((j) => row[j])) + 1);
  });
  return row;
}

function curve(x1: number, y1: number, x2: number, y2: number): string {
  const mid = (y1 + y2) / 2;
  return `M ${x1} ${y1} C ${x1} ${mid}, ${x2} ${mid}, ${x2} ${y2}`;
}

export function layoutWorkflow(steps: Step[]): GraphLayout {
  const row = rows(steps);
  const rowCount = steps.length === 0 ? 0 : Math.max(...row) + 1;
  const perRow = Array.from({ length: rowCount }, (_, r) => row.filter((x) => x === r).length);
  const widest = Math.max(1, ...perRow);
  const width = widest * NODE_W + (widest - 1) * GAP_X;
  const seen = new Array<number>(rowCount).fill(0);
  const nodes = steps.map((_, i) => {
    const r = row[i];
    const rowWidth = perRow[r] * NODE_W + (perRow[r] - 1) * GAP_X;
    const x = (width - rowWidth) / 2 + seen[r]++ * (NODE_W + GAP_X);
    return { index: i, row: r, x, y: TASK_H + GAP_Y + r * (NODE_H + GAP_Y), w: NODE_W, h: NODE_H };
  });
  const taskW = Math.min(width, NODE_W);
  const task: NodeBox = { index: -1, row: -1, x: (width - taskW) / 2, y: 0, w: taskW, h: TASK_H };
  const edges: Edge[] = [];
  steps.forEach((step, i) => {
    const to = nodes[i];
    const from = sources(step, i);
    const starts = from.length === 0 ? [task] : from.map((j) => nodes[j]);
    for (const s of starts) {
      edges.push({ from: s.index, to: i, path: curve(s.x + s.w / 2, s.y + s.h, to.x + to.w / 2, to.y) });
    }
  });
  const height = rowCount === 0 ? TASK_H : TASK_H + rowCount * (NODE_H + GAP_Y);
  return { task, nodes, edges, width, height };
}

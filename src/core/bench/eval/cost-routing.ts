/**
 * What routing between a strong, dear worker and cheaper ones reaches with hindsight, in accuracy and in
 * the share of questions the strong one answers (the baselines of docs/learning.md's MMLU replay run, a
 * Conductor trained with a cost-aware reward). Every worker answers every question alone once; the
 * baselines are then arithmetic on those outcomes: each worker alone, random routing at a given share,
 * and the best worker per group (e.g. subject) under right - lambda x dollars (a training reward's accuracyLambda).
 * Test: test/unit/core/bench/eval/cost-routing.test.ts.
 */
import { BatonError } from '../../errors/index.ts';
import { executeWorkflow } from '../../orchestra/index.ts';
import type { WorkerModel } from '../../providers/index.ts';
import { gradeAnswer } from '../../reward/index.ts';
import type { Task } from '../../task.ts';

interface Outcome {
  correct: boolean;
  costUsd: number;
}

/** outcomes[w][i]: worker w alone on task i; group[i] the task's group (its subject). */
export interface RoutingOutcomes {
  outcomes: Outcome[][];
  group: string[];
}

export interface RoutingPoint {
  accuracy: number;
  /** Share of questions sent to the strong worker. */
  strongShare: number;
  dollarsPerQuestion: number;
}

/** Every worker of `pool` answers every task alone, given `subtask`; a failed call counts as wrong, at its cost so far. */
export async function routingOutcomes(tasks: readonly Task[], pool: WorkerModel[], subtask: string, groupOf: (t: Task) => string): Promise<RoutingOutcomes> {
  const outcomes: Outcome[][] = [];
  for (const [w] of pool.entries()) {
    const row: Outcome[] = [];
    for (const task of tasks) {
      const run = await executeWorkflow({ steps: [{ worker: w, subtask, access: [] }] }, { task, pool });
      const step = run.steps[0];
      row.push({ correct: !step.error && gradeAnswer(run.answer, task).correct, costUsd: step.costUsd ?? 0 });
    }
    outcomes.push(row);
  }
  return { outcomes, group: tasks.map(groupOf) };
}

/** The point of a routing: choice[i] is the worker task i goes to. */
export function routingPoint({ outcomes }: RoutingOutcomes, choice: readonly number[], strong: number): RoutingPoint {
  const n = choice.length;
  let right = 0;
  let dollars = 0;
  choice.forEach((w, i) => {
    right += outcomes[w][i].correct ? 1 : 0;
    dollars += outcomes[w][i].costUsd;
  });
  return { accuracy: right / n, strongShare: choice.filter((w) => w === strong).length / n, dollarsPerQuestion: dollars / n };
}

/** Each worker alone. */
export function singleWorkerPoints(o: RoutingOutcomes, strong: number): RoutingPoint[] {
  return o.outcomes.map((_, w) =>
    routingPoint(
      o,
      o.group.map(() => w),
      strong,
    ),
  );
}

/** Expected accuracy of sending a random `share` of the questions to the strong worker and the rest to the others uniformly. */
export function randomRoutingAccuracy(o: RoutingOutcomes, strong: number, share: number): number {
  const singles = singleWorkerPoints(o, strong).map((p) => p.accuracy);
  const others = singles.filter((_, w) => w !== strong);
  return share * singles[strong] + (1 - share) * (others.reduce((a, b) => a + b, 0) / others.length);
}

/** With hindsight: every group goes to the worker of the highest right - lambda x dollars over its questions. */
export function perGroupRouting(o: RoutingOutcomes, lambda: number): { choice: number[]; byGroup: Record<string, number> } {
  const byGroup: Record<string, number> = {};
  for (const g of new Set(o.group)) {
    const members = o.group.flatMap((x, i) => (x === g ? [i] : []));
    const value = (w: number) => members.reduce((sum, i) => sum + (o.outcomes[w][i].correct ? 1 : 0) - lambda * o.outcomes[w][i].costUsd, 0);
    const cost = (w: number) => members.reduce((sum, i) => sum + o.outcomes[w][i].costUsd, 0);
    // On a tie the cheaper worker: equally right for less.
    byGroup[g] = o.outcomes.map((_, w) => w).reduce((best, w) => (value(w) > value(best) || (value(w) === value(best) && cost(w) < cost(best)) ? w : best));
  }
  return { choice: o.group.map((g) => byGroup[g]), byGroup };
}

/**
 * The smallest lambda at which per-group routing sends at most `share` of the questions to the strong worker:
 * the lambdas where a group changes hands are where its reward difference crosses zero, so the answer is one
 * of them (nudged past it).
 */
export function lambdaForShare(o: RoutingOutcomes, strong: number, share: number): number {
  const candidates = [0];
  for (const g of new Set(o.group)) {
    const members = o.group.flatMap((x, i) => (x === g ? [i] : []));
    const sum = (w: number, f: (x: Outcome) => number) => members.reduce((s, i) => s + f(o.outcomes[w][i]), 0);
    for (const [w] of o.outcomes.entries()) {
      if (w === strong) continue;
      const gain = sum(strong, (x) => (x.correct ? 1 : 0)) - sum(w, (x) => (x.correct ? 1 : 0));
      const extra = sum(strong, (x) => x.costUsd) - sum(w, (x) => x.costUsd);
      if (gain > 0 && extra > 0) candidates.push((gain / extra) * (1 + 1e-9));
    }
  }
  candidates.sort((a, b) => a - b);
  const found = candidates.find((l) => routingPoint(o, perGroupRouting(o, l).choice, strong).strongShare <= share);
  if (found === undefined)
    throw new BatonError({
      code: 'run/config',
      message: `No lambda sends at most ${share} of the questions to worker ${strong}: it is not the dearer worker.`,
    });
  return found;
}

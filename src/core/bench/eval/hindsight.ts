/**
 * What routing alone reaches on a task set, chosen with hindsight: every workflow of one step (a
 * worker answers alone) or two (a worker answers, another checks it seeing the first), scored on the
 * set; the best single one, the best one for each task kind, and random routing (their mean: the
 * accuracy of a Conductor that draws one of them uniformly). A trained Conductor is measured against
 * these (bench/learn.ts, LEARNING.md). Test: test/unit/core/bench/eval/hindsight.test.ts.
 */
import { executeWorkflow } from '../../orchestra/index.ts';
import type { WorkerModel } from '../../providers/index.ts';
import { gradeAnswer } from '../../reward/index.ts';
import type { Task, TaskKind } from '../../task.ts';
import type { Workflow } from '../../workflow/index.ts';

const SOLVE = 'Solve the question; give the final answer in <answer></answer> tags.';
const CHECK = 'Check the answer above and give the final answer in <answer></answer> tags.';

/** The one- and two-step workflows over `workers` workers, one-step ones first, in worker order. */
export function routingWorkflows(workers: number, maxSteps: 1 | 2 = 2): Workflow[] {
  const ids = Array.from({ length: workers }, (_, i) => i);
  const single = ids.map((w): Workflow => ({ steps: [{ worker: w, subtask: SOLVE, access: [] }] }));
  if (maxSteps === 1) return single;
  const checked = ids.flatMap((a) =>
    ids.map((b): Workflow => ({
      steps: [
        { worker: a, subtask: SOLVE, access: [] },
        { worker: b, subtask: CHECK, access: 'all' },
      ],
    })),
  );
  return [...single, ...checked];
}

interface ScoredWorkflow {
  workflow: Workflow;
  /** Share of the set's questions answered right. */
  accuracy: number;
  /** The same per task kind. */
  byKind: Partial<Record<TaskKind, number>>;
}

export interface HindsightBaselines {
  workflows: ScoredWorkflow[];
  randomRouting: number;
  bestFixed: ScoredWorkflow;
  /** Accuracy over the whole set when each kind gets its own best workflow. */
  bestPerKind: { accuracy: number; byKind: Partial<Record<TaskKind, Workflow>> };
}

export async function hindsightBaselines(workflows: readonly Workflow[], tasks: readonly Task[], pool: WorkerModel[]): Promise<HindsightBaselines> {
  const kinds = [...new Set(tasks.map((t) => t.kind))];
  const count = (kind: TaskKind) => tasks.filter((t) => t.kind === kind).length;
  const scored: ScoredWorkflow[] = [];
  for (const workflow of workflows) {
    const right = new Map<TaskKind, number>(kinds.map((k) => [k, 0]));
    for (const task of tasks) {
      const run = await executeWorkflow(workflow, { task, pool });
      if (gradeAnswer(run.answer, task).correct) right.set(task.kind, right.get(task.kind)! + 1);
    }
    const total = [...right.values()].reduce((a, b) => a + b, 0);
    scored.push({ workflow, accuracy: total / tasks.length, byKind: Object.fromEntries(kinds.map((k) => [k, right.get(k)! / count(k)])) });
  }
  const best = (score: (s: ScoredWorkflow) => number) => scored.reduce((a, b) => (score(b) > score(a) ? b : a));
  const perKind = kinds.map((k) => ({ kind: k, choice: best((s) => s.byKind[k]!) }));
  return {
    workflows: scored,
    randomRouting: scored.reduce((sum, s) => sum + s.accuracy, 0) / scored.length,
    bestFixed: best((s) => s.accuracy),
    bestPerKind: {
      accuracy: perKind.reduce((sum, { kind, choice }) => sum + choice.byKind[kind]! * count(kind), 0) / tasks.length,
      byKind: Object.fromEntries(perKind.map(({ kind, choice }) => [kind, choice.workflow])),
    },
  };
}

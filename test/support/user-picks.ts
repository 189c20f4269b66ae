/**
 * A user's picks and ratings as the Ask page's comparison stores them, built from the shapes agreed for
 * issue 24 (CONTRACTS24.md), not from the comparison's code: a comparison's G episodes share a group id and
 * carry the tag 'compare'; the picked one's reward is 1 (correct), the others' 0, each less the run's cost
 * term when the user set one (costWeight x dollars), with `format: true` and details
 * `{ source: 'pick', rank?, costWeight? }`; a thumbs up or down on a single answer is
 * `{ value: up ? 1 : 0, correct: up, format: true, details: { source: 'rating' } }`.
 */
import type { Episode } from '../../src/core/episodes/index.ts';
import type { WorkerSpec } from '../../src/core/providers/index.ts';
import { createSimulatedWorker } from '../../src/core/providers/simulated/index.ts';
import { scoreCompletion, trainedPrompt, type TrainedFormat } from '../../src/core/rl/index.ts';
import type { Task } from '../../src/core/task.ts';
import { FIXED_SUBTASKS } from '../../src/core/workflow/constrain/index.ts';
import { renderWorkflow } from '../../src/core/workflow/index.ts';

export interface PickOptions {
  group: string;
  /** When the comparison ran: each episode's createdAt. */
  createdAt: string;
  /** Dollars x this come off each reward. */
  costWeight?: number;
}

/** The comparison `episodes` with the user's pick, index `picked`, stored as rewards. */
export function pickedComparison(episodes: readonly Episode[], picked: number, o: PickOptions): Episode[] {
  return episodes.map((e, i) => {
    const cost = o.costWeight ? o.costWeight * (e.totals.costUsd ?? 0) : 0;
    return {
      ...e,
      createdAt: o.createdAt,
      group: o.group,
      tags: [...e.tags.filter((t) => t !== 'compare'), 'compare'],
      reward: {
        value: (i === picked ? 1 : 0) - cost,
        correct: i === picked,
        format: true,
        details: { source: 'pick', ...(o.costWeight ? { costWeight: o.costWeight } : {}) },
      },
    };
  });
}

/** One answer rated up or down. */
export const ratedAnswer = (e: Episode, up: boolean): Episode => ({
  ...e,
  reward: { value: up ? 1 : 0, correct: up, format: true, details: { source: 'rating' } },
});

/**
 * A comparison on a simulated pool, picked by a user who always wants `worker`: the pool's one-step plans
 * (fixed subtasks, as a routing Conductor writes them) for `task`, under `format`'s prompt, each run on
 * the pool as the Ask page runs a workflow, the one that calls `worker` picked.
 */
export async function simulatedComparison(task: Task, specs: readonly WorkerSpec[], format: TrainedFormat, worker: string, o: PickOptions): Promise<Episode[]> {
  const pool = specs.map(createSimulatedWorker);
  const prompt = trainedPrompt(format)(task, specs, { maxSteps: format.maxSteps, access: 'binary' });
  const compared = await Promise.all(
    pool.map(async (_, i) => {
      const plan = renderWorkflow({ steps: [{ worker: i, subtask: FIXED_SUBTASKS[0], access: [] }] });
      return (await scoreCompletion(task, pool, plan, { maxSteps: format.maxSteps, prompt, group: o.group, conductorModel: 'compared' })).episode;
    }),
  );
  return pickedComparison(
    compared,
    specs.findIndex((w) => w.id === worker),
    o,
  );
}

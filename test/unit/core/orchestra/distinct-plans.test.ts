import { describe, expect, it } from 'vitest';
import { createRandomRoutingConductor } from '../../../../src/core/conductor/index.ts';
import { seededRandom } from '../../../../src/core/random.ts';
import { createFixedConductor, distinctPlans, runEpisode, SAMPLING_AGAIN, type Conductor } from '../../../../src/core/orchestra/index.ts';
import { createSimulatedWorker } from '../../../../src/core/providers/simulated/index.ts';
import type { Task } from '../../../../src/core/task.ts';
import { renderWorkflow, type Workflow } from '../../../../src/core/workflow/index.ts';

const task: Task = { question: 'Name a prime above 10.', kind: 'open' };
const pool = [0, 1, 2].map((i) =>
  createSimulatedWorker({ id: `w${i}`, provider: 'simulated', model: `w${i}`, simulated: { skill: { default: 1 }, confirmRight: 1, fixWrong: 1 } }),
);
const FORMAT = { workers: pool.length, maxSteps: 3, access: 'binary' } as const;
const plan = (worker: number): Workflow => ({ steps: [{ worker, subtask: 'Answer it.', access: [] }] });

/** Conductors that write the given workers' plans in turn, each billed one token and $0.01, as a priced pool worker playing it would be. */
function scripted(workers: number[]) {
  let next = 0;
  const made: string[] = [];
  const make = async (): Promise<Conductor> => {
    const text = `Reasoning.\n${renderWorkflow(plan(workers[next++]))}`;
    made.push(text);
    return {
      info: { runtime: 'worker', model: `sample-${made.length}` },
      generate: async (req) => (req.onDelta?.(text), { text, usage: { input: 1, output: 1 }, costUsd: 0.01 }),
    };
  };
  return { make, made };
}

const run = async (conductor: Conductor, deltas: string[] = []) =>
  runEpisode({ task, pool, conductor, options: FORMAT, onEvent: (e) => e.type === 'conductor-delta' && deltas.push(e.text) });

describe('distinctPlans', () => {
  it('samples again while a plan repeats one already written, billing the samples thrown away', async () => {
    const plans = distinctPlans(FORMAT);
    const { make } = scripted([0, 0, 0, 1, 2]);
    const first = await run(plans(await make(), make));
    const deltas: string[] = [];
    const second = await run(plans(await make(), make), deltas);
    expect(first.workflow).toEqual(plan(0));
    expect(second.workflow).toEqual(plan(1));
    // The episode names the Conductor that wrote the kept plan, and counts the two repeats' calls.
    expect(second.conductor.model).toBe('sample-4');
    expect(second.completion.usage).toEqual({ input: 3, output: 3 });
    expect(second.completion.costUsd).toBeCloseTo(0.03, 12);
    expect(deltas.filter((d) => d === SAMPLING_AGAIN)).toHaveLength(2);
  });

  it('keeps a repeat after `tries` samples, for a Conductor that knows one plan', async () => {
    const plans = distinctPlans(FORMAT, 3);
    let made = 0;
    const make = async () => (made++, createFixedConductor(renderWorkflow(plan(2))));
    const episodes = [await run(plans(await make(), make)), await run(plans(await make(), make))];
    expect(episodes.map((e) => e.workflow)).toEqual([plan(2), plan(2)]);
    expect(made).toBe(4);
  });

  it('gives four different plans from random routing, run side by side', async () => {
    const plans = distinctPlans(FORMAT);
    const random = seededRandom(7);
    const make = async () => createRandomRoutingConductor({ ...FORMAT, random, wordDelayMs: 0 });
    const episodes = await Promise.all(Array.from({ length: 4 }, async () => run(plans(await make(), make))));
    expect(new Set(episodes.map((e) => renderWorkflow(e.workflow!))).size).toBe(4);
  });

  it('leaves a malformed plan as it is: it is no repeat', async () => {
    const plans = distinctPlans(FORMAT);
    let made = 0;
    const make = async () => (made++, createFixedConductor('no lists here'));
    const episodes = [await run(plans(await make(), make)), await run(plans(await make(), make))];
    expect(episodes.map((e) => e.status)).toEqual(['format-error', 'format-error']);
    expect(made).toBe(2);
  });
});

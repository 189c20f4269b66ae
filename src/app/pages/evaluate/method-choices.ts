/**
 * The methods the Evaluate page offers for a pool and the Conductor page's choice, as core/bench's method
 * strings (`baton eval --method`): the Conductor played by each pool worker (and by the remote endpoint
 * when that is the Conductor page's choice), each worker alone, the oracle, Mixture-of-Agents, random
 * routing, round-robin, each worker reflecting on its own answer, and each plan file picked. Model Conductors that run in the
 * Ask page's worker (Baton's engine, web-llm) are not offered: the note says where to evaluate them.
 * Test: test/unit/app/pages/evaluate/method-choices.test.ts.
 */
import type { ConductorChoice } from '../../../client/index.ts';
import type { WorkerSpec } from '../../../core/providers/index.ts';

export interface MethodChoice {
  method: string;
  label: string;
}

export interface MethodChoices {
  choices: MethodChoice[];
  /** Checked at first: the Conductor page's choice where it can run here, each worker alone and the oracle. */
  preset: string[];
  /** Why the Conductor page's choice is not among the choices, when it is not. */
  note?: string;
}

const SELF_REFLECT_ROUNDS = 2;

/** `plans`: names of the plan files picked, each a fixed:<name> method. */
export function methodChoices(pool: readonly WorkerSpec[], conductor: ConductorChoice, plans: readonly string[] = []): MethodChoices {
  const name = (w: WorkerSpec) => w.label ?? w.model;
  const current =
    conductor.kind === 'pool-worker' && pool.some((w) => w.id === conductor.workerId)
      ? `conductor:worker:${conductor.workerId}`
      : conductor.kind === 'remote-endpoint'
        ? `conductor:remote:${conductor.model}@${conductor.baseUrl}`
        : conductor.kind === 'random-routing'
          ? 'random'
          : undefined;
  const choices: MethodChoice[] = [
    ...(conductor.kind === 'remote-endpoint' ? [{ method: current!, label: `Conductor: ${conductor.model} at ${conductor.baseUrl}` }] : []),
    ...pool.map((w) => ({ method: `conductor:worker:${w.id}`, label: `Conductor: ${name(w)}, prompted` })),
    ...pool.map((w) => ({ method: `single:${w.id}`, label: `${name(w)} alone` })),
    { method: 'oracle', label: 'Oracle (any worker right: an upper bound)' },
    { method: 'moa', label: 'Mixture-of-Agents (every worker proposes, the first aggregates)' },
    { method: 'random', label: 'Random routing' },
    { method: 'round-robin', label: 'Round-robin (questions spread over the workers)' },
    ...pool.map((w) => ({ method: `self-reflect:${w.id},${SELF_REFLECT_ROUNDS}`, label: `${name(w)} reflecting ${SELF_REFLECT_ROUNDS} times` })),
    ...plans.map((p) => ({ method: `fixed:${p}`, label: `Plan ${p} (the same workflow for every question)` })),
  ];
  const note =
    current === undefined
      ? "The Conductor page's choice is a model that runs in the tab's Conductor worker; evaluate it with baton eval --method conductor:engine:<model dir>. Here a pool worker or a remote endpoint plays the Conductor."
      : undefined;
  return { choices, preset: [...(current ? [current] : []), ...pool.map((w) => `single:${w.id}`), 'oracle'], ...(note ? { note } : {}) };
}

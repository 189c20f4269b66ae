/**
 * The methods the Evaluate page offers for a pool and the Conductor page's choice, as core/bench's method
 * strings (`baton eval --method`): the demo Conductor and the Conductor page's choice (an engine model with
 * or without its adapter, a web-llm model, a remote endpoint), each run in the evaluator worker as the app
 * runs it; the Conductor played by each pool worker, each worker alone, the oracle, Mixture-of-Agents, random
 * routing, round-robin, the best worker per kind in hindsight, each worker reflecting on its own answer, and each plan file picked. An engine model
 * on files picked on the Conductor page cannot be named here: the note says so.
 * Test: test/unit/app/pages/evaluate/method-choices.test.ts.
 */
import { describeConductor, type ConductorChoice } from '../../../client/index.ts';
import { conductorChoiceText } from '../../../core/conductor/index.ts';
import type { WorkerSpec } from '../../../core/providers/index.ts';

interface MethodChoice {
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

/** The built-in demo Conductor, as the app runs it. */
export const DEMO_CONDUCTOR_METHOD = 'conductor:engine:demo';

/** The Conductor page's choice as a method, where it can run here: the default is the demo Conductor, which it runs where the GPU allows. */
function currentMethod(pool: readonly WorkerSpec[], conductor: ConductorChoice): string | undefined {
  switch (conductor.kind) {
    case 'demo-auto':
      return DEMO_CONDUCTOR_METHOD;
    case 'random-routing':
      return 'random';
    case 'pool-worker':
      return pool.some((w) => w.id === conductor.workerId) ? `conductor:worker:${conductor.workerId}` : undefined;
    default: {
      // The evaluator worker reads the method back as the same choice; none for a model on picked files.
      const text = conductorChoiceText(conductor);
      return text && `conductor:${text}`;
    }
  }
}

/** `plans`: names of the plan files picked, each a fixed:<name> method. */
export function methodChoices(pool: readonly WorkerSpec[], conductor: ConductorChoice, plans: readonly string[] = []): MethodChoices {
  const name = (w: WorkerSpec) => w.label ?? w.model;
  const current = currentMethod(pool, conductor);
  // A model or endpoint of the Conductor page's comes first, named as that page names it.
  const own =
    (conductor.kind === 'engine-model' || conductor.kind === 'webllm-model' || conductor.kind === 'remote-endpoint') &&
    current &&
    current !== DEMO_CONDUCTOR_METHOD;
  const choices: MethodChoice[] = [
    ...(own ? [{ method: current, label: `Conductor: ${describeConductor(conductor)}` }] : []),
    { method: DEMO_CONDUCTOR_METHOD, label: "Conductor: the demo model on Baton's engine (trained on the demo pool)" },
    ...pool.map((w) => ({ method: `conductor:worker:${w.id}`, label: `Conductor: ${name(w)}, prompted` })),
    ...pool.map((w) => ({ method: `single:${w.id}`, label: `${name(w)} alone` })),
    { method: 'oracle', label: 'Oracle (any worker right: an upper bound)' },
    { method: 'hindsight', label: 'Best worker per kind, with hindsight (from the single runs)' },
    { method: 'moa', label: 'Mixture-of-Agents (every worker proposes, the first aggregates)' },
    { method: 'random', label: 'Random routing' },
    { method: 'round-robin', label: 'Round-robin (questions spread over the workers)' },
    ...pool.map((w) => ({ method: `self-reflect:${w.id},${SELF_REFLECT_ROUNDS}`, label: `${name(w)} reflecting ${SELF_REFLECT_ROUNDS} times` })),
    ...plans.map((p) => ({ method: `fixed:${p}`, label: `Plan ${p} (the same workflow for every question)` })),
  ];
  const note =
    current === undefined && conductor.kind === 'engine-model'
      ? "The Conductor page's model runs on files picked there, which stay with that page: load it from the Hub or a URL to evaluate it here, or run baton eval --method conductor:engine:<model dir>."
      : undefined;
  return { choices, preset: [...(current ? [current] : []), ...pool.map((w) => `single:${w.id}`), 'oracle'], ...(note ? { note } : {}) };
}

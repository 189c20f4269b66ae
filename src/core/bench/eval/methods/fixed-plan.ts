/**
 * Methods whose workflow is written by a rule, not by a model: single:<worker>, round-robin,
 * self-reflect:<worker>,k and moa. Each run's Conductor is a fixed Conductor answering the rendered
 * workflow, so the executor, grading and episodes are exactly the Conductor's; the Conductor's own
 * tokens are none.
 */
import { createFixedConductor } from '../../../orchestra/index.ts';
import { renderWorkflow, type Step } from '../../../workflow/index.ts';
import { SOLVE_SUBTASK } from '../../../conductor/index.ts';
import type { EvalMethod } from '../eval-method.ts';

const REFLECT = 'Reflect on the earlier attempt: check every step, fix any mistake, and give the final answer in <answer></answer> tags.';
const SYNTHESISE =
  'Responses from several models to the task are shown. Critically evaluate them (some may be wrong), then write one ' +
  'improved, accurate answer of your own, with the final answer in <answer></answer> tags.';

const planMethod = (name: string, steps: (index: number, repeat: number) => Step[], runOptions?: EvalMethod['runOptions']): EvalMethod => ({
  name,
  conductor: (run) => createFixedConductor(renderWorkflow({ steps: steps(run.index, run.repeat) }), name),
  ...(runOptions ? { runOptions } : {}),
});

/** One worker answers alone. */
export const singleMethod = (name: string, worker: number): EvalMethod =>
  planMethod(name, () => [{ worker, subtask: SOLVE_SUBTASK, access: [] }], { maxSteps: 1 });

/** Item i at repeat r goes to worker (i + r) mod n alone: spreads the questions evenly over the pool. */
export const roundRobinMethod = (name: string, workers: number): EvalMethod =>
  planMethod(name, (index, repeat) => [{ worker: (index + repeat) % workers, subtask: SOLVE_SUBTASK, access: [] }], { maxSteps: 1 });

/** The worker answers, then reflects on its own answer k times, each time seeing every earlier attempt. */
export const selfReflectMethod = (name: string, worker: number, rounds: number): EvalMethod =>
  planMethod(
    name,
    () => [{ worker, subtask: SOLVE_SUBTASK, access: [] }, ...Array.from({ length: rounds }, () => ({ worker, subtask: REFLECT, access: 'all' as const }))],
    { maxSteps: rounds + 1 },
  );

/**
 * Mixture-of-Agents (Wang et al. 2024): every worker proposes in parallel; in each further layer every
 * worker sees the previous layer's responses and proposes again; the aggregator synthesises the last
 * layer. n x layers + 1 calls. Positional access lists say which steps each one sees, so each layer
 * runs in parallel.
 */
export function moaMethod(name: string, workers: number, layers: number, aggregator: number): EvalMethod {
  const steps = (): Step[] => {
    const out: Step[] = [];
    let previous: number[] = [];
    for (let layer = 0; layer < layers; layer++) {
      const start = out.length;
      for (let w = 0; w < workers; w++) out.push({ worker: w, subtask: layer === 0 ? SOLVE_SUBTASK : SYNTHESISE, access: previous });
      previous = Array.from({ length: workers }, (_, k) => start + k);
    }
    out.push({ worker: aggregator, subtask: SYNTHESISE, access: previous });
    return out;
  };
  return planMethod(name, steps, { maxSteps: workers * layers + 1, access: 'positional' });
}

/**
 * The held-out check of "train on my choices": how often a Conductor's plan follows the user's own later
 * picks. For each held-out comparison the Conductor is asked, as the Ask page asks it (engineConductor: a
 * trained Conductor plans greedily under its format), for its plan on the prompt the compared workflows
 * were written for; it agrees when its plan calls the same workers, in the same order, as the workflow
 * the user picked (workers by id, so a pool listed in another order still counts).
 * Test: through the goal test, test/engine/core/conductor/learns-user-choices.test.ts.
 */
import type { Episode } from '../episodes/index.ts';
import type { PickGroup } from '../rl/index.ts';
import { DEFAULT_MAX_STEPS, parseWorkflow, type Workflow } from '../workflow/index.ts';
import type { EngineModelChoice } from './conductor-choice.ts';
import { engineConductor, type LoadedConductorModel } from './engine-conductor.ts';

export interface PickAgreement {
  /** Held-out picks whose workers the plan matched. */
  agreed: number;
  total: number;
}

const workerIds = (workflow: Workflow | undefined, pool: Episode['pool']): string[] => (workflow?.steps ?? []).map((s) => pool[s.worker]?.id ?? `#${s.worker}`);

/** Whether `plan` (a Conductor's text for `picked`'s prompt) calls the workers `picked` called. */
export function followsPick(plan: string, picked: Episode): boolean {
  const parsed = parseWorkflow(plan, { workers: picked.pool.length, maxSteps: DEFAULT_MAX_STEPS });
  const want = workerIds(picked.workflow, picked.pool);
  return parsed.ok && want.length > 0 && JSON.stringify(workerIds(parsed.workflow, picked.pool)) === JSON.stringify(want);
}

export async function pickAgreement(
  loaded: LoadedConductorModel,
  choice: EngineModelChoice,
  picks: readonly PickGroup[],
  signal?: AbortSignal,
): Promise<PickAgreement> {
  let agreed = 0;
  for (const { picked } of picks) {
    signal?.throwIfAborted();
    // Seed 0: a Conductor without a trained format samples, and the check must say the same twice.
    const conductor = engineConductor(loaded, choice, { workers: picked.pool.length, maxSteps: DEFAULT_MAX_STEPS, access: 'binary', seed: 0 });
    const plan = await conductor.generate({ messages: picked.prompt, ...(signal ? { signal } : {}) });
    if (followsPick(plan.text, picked)) agreed++;
  }
  return { agreed, total: picks.length };
}

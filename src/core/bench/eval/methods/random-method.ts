/** random: random workflows of the Conductor's shapes (the baselines' random routing), drawn from each run's seed. */
import { seededRandom } from '../../../random.ts';
import { createRandomRoutingConductor } from '../../../conductor/index.ts';
import type { EvalMethod } from '../eval-method.ts';

export const randomMethod = (name: string, workers: number, maxSteps: number): EvalMethod => ({
  name,
  conductor: (run) => createRandomRoutingConductor({ workers, maxSteps, access: 'binary', random: seededRandom(run.seed), wordDelayMs: 0 }),
});

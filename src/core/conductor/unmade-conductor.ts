/**
 * The Conductor of a choice that could not be made or loaded (a model that would not load, a pool worker no
 * longer in the pool, a plan file missing): asked for a plan, it fails with why. A run on it then ends, and is
 * stored, as one whose Conductor's own call failed, so the question and the reason are kept like any other
 * failed turn. Tested through runAsk, in test/unit/services/conductor/ask-service.test.ts.
 */
import type { Conductor } from '../orchestra/index.ts';
import { describeConductor, type ConductorChoice } from './conductor-choice.ts';

/** The runtime the episode names, as the Conductor the choice makes would have. */
const RUNTIME: Record<ConductorChoice['kind'], string> = {
  'demo-auto': 'engine',
  'random-routing': 'demo',
  'fixed-plan': 'fixed',
  'pool-worker': 'worker',
  'remote-endpoint': 'worker',
  'engine-model': 'engine',
  'webllm-model': 'webllm',
};

export function unmadeConductor(choice: ConductorChoice, why: unknown): Conductor {
  return { info: { runtime: RUNTIME[choice.kind], model: describeConductor(choice) }, generate: () => Promise.reject(why) };
}

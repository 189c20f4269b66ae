import { BatonError } from '../errors/index.ts';
import type { Conductor, ConductorOutput, ConductorRequest } from './conductor.ts';

/**
 * A Conductor that always answers the same completion text: for tests, replays of a recorded completion
 * and hand-written workflows. With several texts, round r of a recursive run gets texts[r] (the last
 * one repeats).
 */
export function createFixedConductor(texts: string | string[], model = 'fixed'): Conductor {
  const list = Array.isArray(texts) ? texts : [texts];
  if (list.length === 0) throw new BatonError({ code: 'run/config', message: 'A fixed Conductor needs at least one completion text.' });
  let calls = 0;
  return {
    info: { runtime: 'fixed', model },
    async generate(req: ConductorRequest): Promise<ConductorOutput> {
      if (req.signal?.aborted) throw new BatonError({ code: 'run/aborted', message: 'Stopped.' });
      const text = list[Math.min(calls++, list.length - 1)];
      req.onDelta?.(text);
      return { text };
    },
  };
}

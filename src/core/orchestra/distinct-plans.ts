/**
 * Several plans for one question that differ where the Conductor can write different ones: the Conductors of a
 * comparison's runs share the plans written so far, and a run whose first plan repeats one samples again (a
 * fresh Conductor each time, so a seeded model draws a new seed) up to `tries` times before it keeps the repeat
 * (a fixed plan, a Conductor that knows one answer). The samples thrown away still count in the run's usage
 * and dollars. Recursion rounds are left alone: they follow their own run's answer.
 * Test: test/unit/core/orchestra/distinct-plans.test.ts.
 */
import { addCosts, sumUsage } from '../pricing/index.ts';
import type { Usage } from '../providers/index.ts';
import { parseWorkflow, renderWorkflow, type ParseOptions } from '../workflow/index.ts';
import { isRecursionRound, type Conductor, type ConductorOutput } from './conductor.ts';

/** What a run whose plan repeated streams before its next sample (the finished text replaces it). */
export const SAMPLING_AGAIN = '\n\n(The same plan as another run: sampling again.)\n\n';

export type DistinctConductor = (first: Conductor, another: () => Promise<Conductor>) => Conductor;

/** A maker of run Conductors that share the plans seen so far; `format` is how the runs parse a plan. */
export function distinctPlans(format: Omit<ParseOptions, 'recursion'>, tries = 4): DistinctConductor {
  const seen = new Set<string>();
  return (first, another) => {
    let current = first;
    return {
      get info() {
        return current.info;
      },
      async generate(req) {
        if (isRecursionRound(req.messages)) return current.generate(req);
        const usages: Usage[] = [];
        let costUsd: number | null = 0;
        let billed = false;
        for (let attempt = 1; ; attempt++) {
          const out: ConductorOutput = await current.generate(req);
          if (out.usage) usages.push(out.usage);
          if (out.costUsd !== undefined) {
            billed = true;
            costUsd = addCosts(costUsd, out.costUsd);
          }
          const parsed = parseWorkflow(out.text, format);
          const key = parsed.ok && !parsed.keep ? renderWorkflow(parsed.workflow) : undefined;
          if (key === undefined || !seen.has(key) || attempt >= tries) {
            if (key !== undefined) seen.add(key);
            return { ...out, ...(usages.length > 0 ? { usage: sumUsage(usages) } : {}), ...(billed ? { costUsd } : {}) };
          }
          req.onDelta?.(SAMPLING_AGAIN);
          current = await another();
        }
      },
    };
  };
}

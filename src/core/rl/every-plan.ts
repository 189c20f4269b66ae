/**
 * A group of every plan instead of sampled ones (rollout's everyPlan): for a routing Conductor (one step,
 * a fixed subtask), one plan per worker, written as the Conductor's constrained decoding would write it
 * (TokenConstraint.spell), with the policy's log-probabilities of it. Every worker's plan is run and
 * rewarded on every question, so each question's advantages are exact and no worker drops out of the
 * groups once the policy stops sampling it: sampled groups of a cost-aware reward settle on one worker
 * for all questions before the small differences between questions can teach anything (docs/learning.md).
 * It costs one run per worker and question: free on a recorded pool, a pool's whole price on live APIs.
 * Test: test/engine/node/commands/train/every-plan.test.ts.
 */
import { BatonError } from '../errors/index.ts';
import { renderWorkflow } from '../workflow/index.ts';
import { FIXED_SUBTASKS, type TokenConstraint } from '../workflow/constrain/index.ts';
import type { PolicyPrompt, Policy, SampledCompletion } from './policy.ts';

export interface EveryPlanOptions {
  /** The completion budget the constraint's masks count down from, as sampling would. */
  maxNewTokens: number;
  /** The logprobs' temperature: the sampling temperature GRPO's loss divides by. */
  temperature: number;
  continueFinal?: boolean;
}

/** The plan that hands the question to `worker` alone. */
export const routingPlan = (worker: number): string => renderWorkflow({ steps: [{ worker, subtask: FIXED_SUBTASKS[0], access: [] }] });

export async function everyPlan(
  policy: Policy,
  prompt: PolicyPrompt,
  workers: number,
  constraint: TokenConstraint<unknown>,
  options: EveryPlanOptions,
): Promise<SampledCompletion[]> {
  const promptIds = policy.promptIds(prompt, options.continueFinal);
  const completions: SampledCompletion[] = [];
  for (let worker = 0; worker < workers; worker++) {
    const text = routingPlan(worker);
    const tokens = constraint.spell(constraint.start(), text, options.maxNewTokens);
    if (tokens === undefined) {
      throw new BatonError({
        code: 'run/config',
        message: `Every plan needs one-step plans with fixed subtasks in ${options.maxNewTokens} tokens; the Conductor's format does not allow ${JSON.stringify(text)}.`,
      });
    }
    const logprobs = await policy.logprobs([...promptIds, ...tokens], { temperature: options.temperature });
    completions.push({
      index: worker,
      promptIds: [...promptIds],
      tokens,
      logprobs: Array.from(logprobs.subarray(promptIds.length - 1)),
      text,
      finishReason: 'stop',
    });
  }
  return completions;
}

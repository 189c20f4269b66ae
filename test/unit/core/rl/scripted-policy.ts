/**
 * Policies for the loop's unit tests, where no GPU is needed: each completion's text is a workflow
 * sending the question to one worker (or a malformed text), chosen by `pick(seed, index, prompt)`. Token ids
 * and logprobs are made up but tied to the text, so a test can see which ones reached a batch.
 */
import type { GroupOptions, Policy, PolicyPrompt, SampledCompletion } from '../../../../src/core/rl/index.ts';
import { renderWorkflow } from '../../../../src/core/workflow/index.ts';

/** A worker index, or 'malformed' for a text that does not parse. */
export type Choice = number | 'malformed';

export const planText = (choice: Choice) =>
  choice === 'malformed' ? 'model_id = [0' : `Ask one model.\n${renderWorkflow({ steps: [{ worker: choice, subtask: 'Answer the question.', access: [] }] })}`;

export class ScriptedPolicy implements Policy {
  readonly calls: { prompt: PolicyPrompt; options: GroupOptions }[] = [];
  constructor(private readonly pick: (seed: number, index: number, prompt: PolicyPrompt) => Choice) {}

  promptIds(): number[] {
    return [1, 2, 3];
  }

  async generateGroup(prompt: PolicyPrompt, options: GroupOptions): Promise<SampledCompletion[]> {
    this.calls.push({ prompt, options });
    return Array.from({ length: options.n }, (_, index) => {
      const choice = this.pick(options.sampling.seed, index, prompt);
      const tokens = [100 + (choice === 'malformed' ? 99 : choice), 7, index + 1];
      options.onText?.(index, planText(choice));
      return { index, promptIds: [1, 2, 3], tokens, logprobs: tokens.map((t) => -t / 1000), text: planText(choice), finishReason: 'stop' as const };
    });
  }

  async logprobs(ids: readonly number[]): Promise<Float32Array> {
    return new Float32Array(ids.length - 1).fill(-1);
  }
}

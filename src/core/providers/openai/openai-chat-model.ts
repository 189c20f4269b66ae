/** OpenAI chat completions: GPT-5 `reasoning_effort` from spec.reasoning, limits as `max_completion_tokens`. */
import type { WorkerModel, WorkerSpec } from '../types.ts';
import { providerIdentity } from '../common/provider-identity.ts';
import { reasoningEffort } from '../common/reasoning.ts';
import { createSdkWorker, type NetworkWorkerContext } from '../common/sdk-worker.ts';

export function createOpenAIWorker(spec: WorkerSpec, context: NetworkWorkerContext): WorkerModel {
  const effort = reasoningEffort(spec.reasoning);
  const takesTemperature = !isReasoningModel(spec.model);
  return createSdkWorker({
    spec,
    model: async () => {
      const { createOpenAI } = await import('@ai-sdk/openai');
      // An empty key, never undefined: the SDK would otherwise read OPENAI_API_KEY from the environment itself.
      return createOpenAI({ apiKey: context.apiKey ?? '', baseURL: spec.baseUrl, fetch: context.fetch }).chat(spec.model);
    },
    identity: providerIdentity(spec, context.keyName),
    noPrefillReason: 'the chat completions API answers a trailing assistant message with a new turn',
    context,
    // max_tokens is deprecated and refused by reasoning models; max_completion_tokens works for all.
    settings: ({ maxTokens, temperature }) => ({
      ...(takesTemperature ? { temperature } : {}),
      providerOptions: {
        openai: {
          ...(maxTokens !== undefined ? { maxCompletionTokens: maxTokens } : {}),
          ...(effort ? { reasoningEffort: effort } : {}),
        },
      },
    }),
  });
}

/** o-series and GPT-5 (not its chat variant) refuse `temperature`; the SDK would drop it with a console warning. */
function isReasoningModel(model: string): boolean {
  return /^o\d/.test(model) || (/^gpt-5/.test(model) && !/-chat/.test(model));
}

/** Google Gemini generateContent / streamGenerateContent, the key in `x-goog-api-key`, thinking by budget. */
import type { WorkerModel, WorkerSpec } from '../types.ts';
import { providerIdentity } from '../common/provider-identity.ts';
import { thinkingBudget } from '../common/reasoning.ts';
import { createSdkWorker, type NetworkWorkerContext } from '../common/sdk-worker.ts';

export function createGoogleWorker(spec: WorkerSpec, context: NetworkWorkerContext): WorkerModel {
  const budget = thinkingBudget(spec.reasoning);
  return createSdkWorker({
    spec,
    model: async () => {
      const { createGoogleGenerativeAI } = await import('@ai-sdk/google');
      return createGoogleGenerativeAI({ apiKey: context.apiKey ?? '', baseURL: spec.baseUrl, fetch: context.fetch }).chat(spec.model);
    },
    identity: providerIdentity(spec, context.keyName),
    noPrefillReason: 'Gemini has no assistant prefill',
    context,
    settings: ({ maxTokens, temperature }) => ({
      maxOutputTokens: maxTokens,
      temperature,
      ...(budget !== undefined ? { providerOptions: { google: { thinkingConfig: { thinkingBudget: budget } } } } : {}),
    }),
  });
}

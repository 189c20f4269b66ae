/**
 * Anthropic Messages. A number (or effort word) in spec.reasoning turns extended thinking on with that
 * budget; with thinking on the API refuses an assistant prefill, without it a trailing assistant
 * message is continued.
 */
import type { WorkerModel, WorkerSpec } from '../types.ts';
import { providerIdentity } from '../common/provider-identity.ts';
import { thinkingBudget } from '../common/reasoning.ts';
import { createSdkWorker, type NetworkWorkerContext } from '../common/sdk-worker.ts';

/** The smallest thinking budget Anthropic accepts. */
const MIN_THINKING_BUDGET = 1024;

export function createAnthropicWorker(spec: WorkerSpec, context: NetworkWorkerContext): WorkerModel {
  const requested = thinkingBudget(spec.reasoning) ?? 0;
  const budget = requested > 0 ? Math.max(MIN_THINKING_BUDGET, requested) : 0;
  return createSdkWorker({
    spec,
    model: async () => {
      const { createAnthropic } = await import('@ai-sdk/anthropic');
      const provider = createAnthropic({
        apiKey: context.apiKey ?? '',
        baseURL: spec.baseUrl,
        fetch: context.fetch,
        // Anthropic refuses browser (CORS) calls unless the caller says it knows the key is exposed to the page.
        headers: { 'anthropic-dangerous-direct-browser-access': 'true' },
      });
      return provider.messages(spec.model);
    },
    identity: providerIdentity(spec, context.keyName),
    noPrefillReason: budget > 0 ? 'Anthropic does not take a prefill while extended thinking is on' : undefined,
    context,
    // The SDK adds the thinking budget to max_tokens, so maxTokens stays the room for the answer itself.
    settings: ({ maxTokens, temperature }) => ({
      maxOutputTokens: maxTokens,
      ...(budget > 0 ? { providerOptions: { anthropic: { thinking: { type: 'enabled', budgetTokens: budget } } } } : { temperature }),
    }),
  });
}

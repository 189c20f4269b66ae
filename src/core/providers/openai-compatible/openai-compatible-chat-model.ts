/**
 * Any OpenAI-compatible chat completions server at spec.baseUrl: OpenRouter, vLLM, Ollama, llama.cpp,
 * LM Studio. The key is optional (local servers take none); usage is asked for in streams.
 */
import { BatonError } from '../../errors/index.ts';
import type { WorkerModel, WorkerSpec } from '../types.ts';
import { providerIdentity } from '../common/provider-identity.ts';
import { reasoningEffort } from '../common/reasoning.ts';
import { createSdkWorker, type NetworkWorkerContext } from '../common/sdk-worker.ts';

export function createOpenAICompatibleWorker(spec: WorkerSpec, context: NetworkWorkerContext): WorkerModel {
  const baseURL = spec.baseUrl;
  if (!baseURL) {
    throw new BatonError({
      code: 'run/config',
      message: `Worker '${spec.id}' is OpenAI-compatible but has no baseUrl: set it to the server's API root, e.g. http://localhost:11434/v1 (Ollama) or https://openrouter.ai/api/v1.`,
      data: { worker: spec.id },
    });
  }
  const effort = reasoningEffort(spec.reasoning);
  return createSdkWorker({
    spec,
    model: async () => {
      const { createOpenAICompatible } = await import('@ai-sdk/openai-compatible');
      const provider = createOpenAICompatible({
        name: 'compatible',
        baseURL,
        apiKey: context.apiKey,
        fetch: context.fetch,
        includeUsage: true,
      });
      return provider.chatModel(spec.model);
    },
    identity: providerIdentity(spec, context.keyName),
    // Servers differ: some continue a trailing assistant message, most start a new turn. No safe way to tell.
    noPrefillReason: 'OpenAI-compatible servers do not reliably continue a trailing assistant message',
    context,
    settings: ({ maxTokens, temperature }) => ({
      maxOutputTokens: maxTokens,
      temperature,
      ...(effort ? { providerOptions: { openaiCompatible: { reasoningEffort: effort } } } : {}),
    }),
  });
}

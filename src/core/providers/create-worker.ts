/** One WorkerModel per WorkerSpec, dispatched on the provider with explicit imports. */
import { BatonError } from '../errors/index.ts';
import { createAnthropicWorker } from './anthropic/anthropic-chat-model.ts';
import { createGoogleWorker } from './google/google-chat-model.ts';
import { defaultKeyName } from './keys.ts';
import { createOpenAICompatibleWorker } from './openai-compatible/openai-compatible-chat-model.ts';
import { createOpenAIWorker } from './openai/openai-chat-model.ts';
import { createReplayWorker } from './replay/replay-chat-model.ts';
import type { ReplayTable } from './replay/index.ts';
import type { NetworkWorkerContext } from './common/sdk-worker.ts';
import { createSimulatedWorker } from './simulated/index.ts';
import { createLocalWorker, type LocalModels } from './local/index.ts';
import type { WorkerModel, WorkerSpec } from './types.ts';
import { priceForWorker, type PriceOverrides } from '../pricing/index.ts';

interface WorkerContext extends NetworkWorkerContext {
  /** The recorded answers a 'replay' worker reads. */
  replay?: ReplayTable;
  /** The user's own prices, over the shipped table. */
  prices?: PriceOverrides;
  /** The runtime 'engine' and 'webllm' workers run on (the Conductor's web worker, or Dawn in the CLI). */
  local?: LocalModels;
}

/**
 * The worker's spec carries the price it is billed at (its own, the user's, or the shipped table's), so the
 * budget, the ledger and the stored episode all see one price.
 */
export function createWorkerModel(given: WorkerSpec, ctx: WorkerContext = {}): WorkerModel {
  const price = priceForWorker(given, ctx.prices);
  const spec: WorkerSpec = price ? { ...given, price } : given;
  const network: NetworkWorkerContext = { ...ctx, keyName: ctx.keyName ?? defaultKeyName(spec) };
  switch (spec.provider) {
    case 'openai':
      return createOpenAIWorker(spec, network);
    case 'anthropic':
      return createAnthropicWorker(spec, network);
    case 'google':
      return createGoogleWorker(spec, network);
    case 'openai-compatible':
      return createOpenAICompatibleWorker(spec, network);
    case 'simulated':
      return createSimulatedWorker(spec);
    case 'replay':
      if (!ctx.replay) {
        throw new BatonError({
          code: 'run/config',
          message: `Worker '${spec.id}' replays recorded answers but no replay table was loaded: import one (e.g. a RouteLLM CSV) first.`,
          data: { worker: spec.id },
        });
      }
      return createReplayWorker(spec, ctx.replay);
    case 'webllm':
    case 'engine':
      if (!ctx.local) {
        throw new BatonError({
          code: 'provider/unsupported',
          message: `Worker '${spec.id}' runs a model on this machine (provider '${spec.provider}'), which only the app's Ask page${spec.provider === 'engine' ? ' and the CLI' : ''} can run. Use a local OpenAI-compatible server (Ollama, llama.cpp, vLLM) here.`,
          data: { worker: spec.id, provider: spec.provider },
        });
      }
      return createLocalWorker(spec, ctx.local);
  }
}

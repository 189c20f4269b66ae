/**
 * A pool worker on a model that runs on this machine: no key, no network, price 0. The model and its GPU belong
 * to the LocalModels runtime (it queues this call behind the Conductor's and other workers' generations); here
 * are the parts every worker shares: the timeout, the stop, latency and an empty answer reported as such.
 */
import { BatonError } from '../../errors/index.ts';
import { callDeadline, DEFAULT_CALL_TIMEOUT_MS } from '../common/call-deadline.ts';
import { emptyAnswerError } from '../common/provider-error.ts';
import type { ProviderIdentity } from '../common/provider-identity.ts';
import type { CallRequest, CallResult, WorkerModel, WorkerSpec } from '../types.ts';
import type { LocalModels } from './local-models.ts';

/** Answers as long as the workers' usual budget, unless the spec or the step says otherwise. */
const DEFAULT_MAX_TOKENS = 4096;
/** The worker setting of the paper's training runs (docs/method.md). */
const DEFAULT_TEMPERATURE = 0.2;

const FREE = { input: 0, output: 0 };

function localIdentity(spec: WorkerSpec): ProviderIdentity {
  const label = spec.provider === 'webllm' ? 'web-llm' : "Baton's engine";
  return { label, model: spec.model, needsKey: false, local: true };
}

export function createLocalWorker(given: WorkerSpec, models: LocalModels): WorkerModel {
  const spec: WorkerSpec = { ...given, price: given.price ?? FREE };
  const identity = localIdentity(spec);
  return {
    spec,
    supportsPrefill: true,
    async call(req: CallRequest): Promise<CallResult> {
      const started = performance.now();
      const deadline = callDeadline(identity, req.timeoutMs ?? DEFAULT_CALL_TIMEOUT_MS, req.signal);
      try {
        const answer = await models.chat(spec, {
          messages: req.messages,
          maxTokens: req.maxTokens ?? spec.maxTokens ?? DEFAULT_MAX_TOKENS,
          temperature: req.temperature ?? spec.temperature ?? DEFAULT_TEMPERATURE,
          signal: deadline.signal,
          ...(req.onDelta ? { onDelta: req.onDelta } : {}),
        });
        if (answer.text.trim() === '') throw emptyAnswerError(identity, answer.finishReason);
        return { text: answer.text, usage: answer.usage, latencyMs: performance.now() - started, attempts: 1, finishReason: answer.finishReason };
      } catch (e) {
        // The runtime reports a stop as its own 'run/aborted'; the deadline knows whether it was the timeout.
        const stop = deadline.stopError();
        if (stop && !(e instanceof BatonError && e.code !== 'run/aborted')) throw stop;
        throw e;
      } finally {
        deadline.dispose();
      }
    },
  };
}

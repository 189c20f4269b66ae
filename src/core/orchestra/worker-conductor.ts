import { costUsd } from '../pricing/index.ts';
import type { WorkerModel } from '../providers/index.ts';
import type { Conductor, ConductorOutput, ConductorRequest } from './conductor.ts';

/**
 * A pool worker playing the Conductor with Baton's prompt (the paper's prompted frontier Conductor).
 * Where the worker honours no prefill, the trailing assistant message is dropped rather than sent as a
 * finished turn.
 */
export function createWorkerConductor(worker: WorkerModel, options: { maxTokens?: number; temperature?: number } = {}): Conductor {
  const maxTokens = options.maxTokens ?? 1024;
  const temperature = options.temperature ?? worker.spec.temperature;
  return {
    info: { runtime: 'worker', model: worker.spec.model, sampling: { temperature, maxNewTokens: maxTokens } },
    async generate(req: ConductorRequest): Promise<ConductorOutput> {
      const last = req.messages.at(-1);
      const messages = !worker.supportsPrefill && last?.role === 'assistant' ? req.messages.slice(0, -1) : req.messages;
      const result = await worker.call({ messages, maxTokens, temperature, signal: req.signal, onDelta: req.onDelta });
      return { text: result.text, usage: result.usage, costUsd: costUsd(result.usage, worker.spec.price) };
    },
  };
}

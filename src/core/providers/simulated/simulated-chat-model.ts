import { BatonError } from '../../errors/index.ts';
import type { CallRequest, CallResult, WorkerModel, WorkerSpec } from '../types.ts';
import { planSimulatedCall } from './plan-simulated-call.ts';

const STREAM_CHUNKS = 4;

function aborted(): BatonError {
  return new BatonError({ code: 'run/aborted', message: 'Stopped.' });
}

/**
 * Waits `ms`, calling `onTick(i)` at evenly spaced offsets on the way. Every timer is scheduled from the
 * start, so timer lateness does not add up across chunks. Rejects promptly when `signal` aborts.
 */
function wait(ms: number, signal: AbortSignal | undefined, ticks: number, onTick: (i: number) => void): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(aborted());
    if (ms <= 0) {
      for (let i = 0; i < ticks; i++) onTick(i);
      return resolve();
    }
    const timers = Array.from({ length: ticks }, (_, i) => setTimeout(() => onTick(i), (ms * i) / ticks));
    const done = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    function onAbort() {
      timers.forEach(clearTimeout);
      clearTimeout(done);
      reject(aborted());
    }
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}

function chunks(text: string, n: number): string[] {
  const size = Math.ceil(text.length / n);
  return Array.from({ length: n }, (_, i) => text.slice(i * size, (i + 1) * size)).filter((c) => c !== '');
}

/** A worker that needs no key and no network: a deterministic stand-in with a known skill per task kind. */
export function createSimulatedWorker(spec: WorkerSpec): WorkerModel {
  return {
    spec,
    supportsPrefill: true,
    async call(req: CallRequest): Promise<CallResult> {
      const plan = planSimulatedCall(spec, req);
      const started = performance.now();
      if (req.timeoutMs !== undefined && plan.latencyMs > req.timeoutMs) {
        await wait(req.timeoutMs, req.signal, 0, () => {});
        throw new BatonError({
          code: 'provider/timeout',
          message: `Simulated worker "${spec.id}" took longer than ${req.timeoutMs} ms: raise the step timeout.`,
          isRetryable: true,
        });
      }
      const pieces = chunks(plan.text, STREAM_CHUNKS);
      await wait(plan.latencyMs, req.signal, req.onDelta ? pieces.length : 0, (i) => req.onDelta?.(pieces[i]));
      return {
        text: plan.text,
        usage: plan.usage,
        latencyMs: performance.now() - started,
        attempts: 1,
        finishReason: plan.finishReason,
      };
    },
  };
}

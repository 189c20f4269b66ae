/**
 * One signal for a whole worker call (retries and their waits included) that fires on the caller's
 * abort or on the call's timeout, and says afterwards which of the two it was.
 */
import { BatonError } from '../../errors/index.ts';
import type { ProviderIdentity } from './provider-identity.ts';

export const DEFAULT_CALL_TIMEOUT_MS = 300_000;

interface CallDeadline {
  readonly signal: AbortSignal;
  /** The error to report once the signal has fired (timeout or stop), else undefined. */
  stopError(): BatonError | undefined;
  dispose(): void;
}

export function callDeadline(who: ProviderIdentity, timeoutMs: number, outer?: AbortSignal): CallDeadline {
  const controller = new AbortController();
  let timedOut = false;
  const timer = setTimeout(() => {
    timedOut = true;
    controller.abort(new DOMException('The call timed out.', 'TimeoutError'));
  }, timeoutMs);
  const onOuterAbort = () => controller.abort(outer?.reason);
  if (outer?.aborted) onOuterAbort();
  else outer?.addEventListener('abort', onOuterAbort, { once: true });

  return {
    signal: controller.signal,
    stopError() {
      if (!controller.signal.aborted) return undefined;
      if (timedOut) {
        return new BatonError({
          code: 'provider/timeout',
          message: `${who.label} model '${who.model}' did not answer within ${formatMs(timeoutMs)}. Try again, allow more time, or pick a faster model.`,
          data: { provider: who.label, model: who.model, timeoutMs },
          isRetryable: true,
        });
      }
      return new BatonError({ code: 'run/aborted', message: 'Stopped.', data: { provider: who.label, model: who.model } });
    },
    dispose() {
      clearTimeout(timer);
      outer?.removeEventListener('abort', onOuterAbort);
    },
  };
}

function formatMs(ms: number): string {
  return ms < 1000 ? `${ms} ms` : `${Math.round(ms / 1000)} s`;
}

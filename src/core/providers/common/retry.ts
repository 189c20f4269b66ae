/**
 * Retries of one worker call: exponential backoff with jitter, or the wait the provider asked for.
 * The AI SDK's own retries are off (maxRetries: 0) so this is the only retry loop, and it can honour
 * `retry-after`, count attempts and stop at once on abort.
 */
import { BatonError } from '../../errors/index.ts';

export interface RetryPolicy {
  /** Attempts in all, the first one included. */
  attempts: number;
  /** Backoff before retry n is drawn from [d/2, d] with d = min(maxDelayMs, baseDelayMs * 2^(n-1)). */
  baseDelayMs: number;
  maxDelayMs: number;
  /** A provider asking for a longer wait than this is not waited for: the call fails with its error at once. */
  maxRetryAfterMs: number;
}

export const DEFAULT_RETRY_POLICY: RetryPolicy = { attempts: 5, baseDelayMs: 2_000, maxDelayMs: 30_000, maxRetryAfterMs: 60_000 };

/** Wait before retry number `retry` (1 = the first retry). Half fixed, half random, so callers spread out. */
export function backoffDelayMs(retry: number, policy: RetryPolicy, random: () => number = Math.random): number {
  const ceiling = Math.min(policy.maxDelayMs, policy.baseDelayMs * 2 ** (retry - 1));
  return ceiling / 2 + (random() * ceiling) / 2;
}

interface RetryOptions {
  policy: RetryPolicy;
  signal?: AbortSignal;
  /** Whether this failure may be retried (the error's own `isRetryable` is checked first). */
  canRetry?: (error: BatonError) => boolean;
  random?: () => number;
}

/**
 * Runs `attempt` until it succeeds, a failure is not retryable, or the attempts run out.
 * `attempt` must throw BatonErrors; a `retryAfterMs` in the error's data replaces the backoff.
 * The last error is rethrown with `attempts` added to its data.
 */
export async function retrying<T>(attempt: (n: number) => Promise<T>, options: RetryOptions): Promise<{ value: T; attempts: number }> {
  for (let n = 1; ; n++) {
    try {
      return { value: await attempt(n), attempts: n };
    } catch (e) {
      const error = e as BatonError;
      const asked = error.data?.retryAfterMs;
      const retry =
        n < options.policy.attempts &&
        error.isRetryable &&
        (options.canRetry?.(error) ?? true) &&
        !(typeof asked === 'number' && asked > options.policy.maxRetryAfterMs);
      if (!retry) throw withAttempts(error, n);
      const wait = typeof asked === 'number' ? asked : backoffDelayMs(n, options.policy, options.random);
      await sleep(wait, options.signal);
    }
  }
}

function withAttempts(error: BatonError, attempts: number): BatonError {
  return new BatonError({
    code: error.code,
    message: error.message,
    data: { ...error.data, attempts },
    cause: error.cause,
    isRetryable: error.isRetryable,
  });
}

/** Resolves after `ms`, or rejects with the signal's reason as soon as it aborts. */
export function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason);
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal!.reason);
    };
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}

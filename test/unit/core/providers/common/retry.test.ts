import { describe, expect, it } from 'vitest';
import { BatonError } from '../../../../../src/core/errors/index.ts';
import { backoffDelayMs, DEFAULT_RETRY_POLICY, retrying, sleep } from '../../../../../src/core/providers/common/retry.ts';

const retryable = (data?: Record<string, unknown>) => new BatonError({ code: 'provider/server', message: 'x', isRetryable: true, data });
const policy = { attempts: 4, baseDelayMs: 1, maxDelayMs: 2, maxRetryAfterMs: 50 };

describe('backoffDelayMs', () => {
  it('doubles from the base, caps at the maximum, and jitters within the upper half', () => {
    const p = DEFAULT_RETRY_POLICY;
    expect([1, 2, 3, 4, 5, 6].map((n) => backoffDelayMs(n, p, () => 1))).toEqual([2000, 4000, 8000, 16000, 30000, 30000]);
    expect(backoffDelayMs(2, p, () => 0)).toBe(2000);
    expect(backoffDelayMs(2, p, () => 0.5)).toBe(3000);
  });
});

describe('retrying', () => {
  it('counts attempts until success', async () => {
    let n = 0;
    const out = await retrying(async () => (++n < 3 ? Promise.reject(retryable()) : 'done'), { policy });
    expect(out).toEqual({ value: 'done', attempts: 3 });
  });

  it('stops at once on a non-retryable error and adds the attempt count', async () => {
    let n = 0;
    const error = await retrying(
      async () => {
        n++;
        throw new BatonError({ code: 'provider/auth', message: 'no', data: { keyName: 'K' } });
      },
      { policy },
    ).catch((e) => e);
    expect(n).toBe(1);
    expect(error).toMatchObject({ code: 'provider/auth', data: { keyName: 'K', attempts: 1 } });
  });

  it('stops when the caller says a failure may not be retried', async () => {
    let n = 0;
    const failing = retrying(
      async () => {
        n++;
        throw retryable();
      },
      { policy, canRetry: () => false },
    );
    await expect(failing).rejects.toMatchObject({ code: 'provider/server', data: { attempts: 1 } });
    expect(n).toBe(1);
  });

  it('waits the time the provider asked for, unless it is longer than the policy allows', async () => {
    let n = 0;
    const started = Date.now();
    const out = await retrying(async () => (++n < 2 ? Promise.reject(retryable({ retryAfterMs: 30 })) : 'done'), { policy });
    expect(out.attempts).toBe(2);
    expect(Date.now() - started).toBeGreaterThanOrEqual(25);
    n = 0;
    const error = await retrying(
      async () => {
        n++;
        throw retryable({ retryAfterMs: 3_600_000 });
      },
      { policy },
    ).catch((e) => e);
    expect(n).toBe(1);
    expect(error.data).toMatchObject({ retryAfterMs: 3_600_000, attempts: 1 });
  });

  it('gives up after the last attempt', async () => {
    let n = 0;
    const error = await retrying(
      async () => {
        n++;
        throw retryable();
      },
      { policy },
    ).catch((e) => e);
    expect(n).toBe(4);
    expect(error.data.attempts).toBe(4);
  });
});

describe('sleep', () => {
  it('rejects with the abort reason', async () => {
    const controller = new AbortController();
    const waiting = sleep(60_000, controller.signal);
    controller.abort(new Error('stop'));
    await expect(waiting).rejects.toThrow('stop');
  });
});

import { describe, expect, it } from 'vitest';
import { retryAfterMs, retryInfoDelayMs } from '../../../../../src/core/providers/common/retry-after.ts';

describe('retryAfterMs', () => {
  const now = Date.parse('2026-01-01T00:00:00Z');
  it('reads seconds, an HTTP date, and retry-after-ms first', () => {
    expect(retryAfterMs({ 'retry-after': '3' }, now)).toBe(3000);
    expect(retryAfterMs({ 'Retry-After': '1.5' }, now)).toBe(1500);
    expect(retryAfterMs({ 'retry-after': 'Thu, 01 Jan 2026 00:00:07 GMT' }, now)).toBe(7000);
    expect(retryAfterMs({ 'retry-after': 'Wed, 31 Dec 2025 23:59:00 GMT' }, now)).toBe(0);
    expect(retryAfterMs({ 'retry-after-ms': '250', 'retry-after': '9' }, now)).toBe(250);
  });
  it('is undefined when the provider did not say or said nonsense', () => {
    expect(retryAfterMs(undefined, now)).toBeUndefined();
    expect(retryAfterMs({}, now)).toBeUndefined();
    expect(retryAfterMs({ 'retry-after': 'soon' }, now)).toBeUndefined();
  });
});

describe('retryInfoDelayMs', () => {
  it("reads Gemini's RetryInfo detail, and nothing from other bodies", () => {
    const body = (details: unknown) => JSON.stringify({ error: { code: 429, status: 'RESOURCE_EXHAUSTED', details } });
    expect(retryInfoDelayMs(body([{ '@type': 'type.googleapis.com/google.rpc.RetryInfo', retryDelay: '36s' }]))).toBe(36_000);
    expect(retryInfoDelayMs(body([{ '@type': 'x.Help' }, { '@type': 'type.googleapis.com/google.rpc.RetryInfo', retryDelay: '1.5s' }]))).toBe(1_500);
    expect(retryInfoDelayMs(body([{ retryDelay: 'soon' }]))).toBeUndefined();
    expect(retryInfoDelayMs(JSON.stringify({ error: { message: 'Rate limit reached.' } }))).toBeUndefined();
    expect(retryInfoDelayMs('not json')).toBeUndefined();
    expect(retryInfoDelayMs(undefined)).toBeUndefined();
  });
});

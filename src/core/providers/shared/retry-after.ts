/**
 * How long a provider asked us to wait, from `retry-after-ms` (OpenAI) or `retry-after`
 * (seconds or an HTTP date). Undefined when it did not say.
 */
export function retryAfterMs(headers: Record<string, string> | undefined, now: number = Date.now()): number | undefined {
  if (!headers) return undefined;
  const lower = Object.fromEntries(Object.entries(headers).map(([k, v]) => [k.toLowerCase(), v.trim()]));
  const ms = Number(lower['retry-after-ms']);
  if (lower['retry-after-ms'] && Number.isFinite(ms) && ms >= 0) return ms;
  const value = lower['retry-after'];
  if (!value) return undefined;
  if (/^\d+(\.\d+)?$/.test(value)) return Number(value) * 1000;
  const date = Date.parse(value);
  return Number.isNaN(date) ? undefined : Math.max(0, date - now);
}

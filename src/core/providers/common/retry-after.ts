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

/**
 * The wait Gemini asks for in its error body rather than a header: a `google.rpc.RetryInfo` detail with
 * `retryDelay` as a protobuf Duration ("36s", "0.5s"). Undefined when the body has none.
 */
export function retryInfoDelayMs(body: string | undefined): number | undefined {
  if (!body) return undefined;
  let details: unknown;
  try {
    details = (JSON.parse(body) as { error?: { details?: unknown } })?.error?.details;
  } catch {
    return undefined;
  }
  if (!Array.isArray(details)) return undefined;
  for (const detail of details) {
    const delay = (detail as { retryDelay?: unknown })?.retryDelay;
    const seconds = typeof delay === 'string' ? /^(\d+(?:\.\d+)?)s$/.exec(delay.trim())?.[1] : undefined;
    if (seconds !== undefined) return Number(seconds) * 1000;
  }
  return undefined;
}

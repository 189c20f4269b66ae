/**
 * Provider failures as BatonErrors a user can act on: which provider, which key name, what to do next.
 * The key itself never enters a message or data: provider bodies (which echo refused keys) are redacted,
 * and the SDK error (which holds request and response bodies) is not kept as the cause.
 */
import type { APICallError } from 'ai';
import { BatonError } from '../../errors/index.ts';
import type { ProviderIdentity } from './provider-identity.ts';
import { redactSecret } from './redact.ts';
import { retryAfterMs, retryInfoDelayMs } from './retry-after.ts';

const MAX_DETAIL_CHARS = 300;

/**
 * The SDK's own APICallError.isInstance test (a global symbol marker), without importing the SDK: this
 * module loads with every worker, the SDK only when a network worker is first called.
 */
const API_CALL_ERROR = Symbol.for('vercel.ai.error.AI_APICallError');
function isApiCallError(c: unknown): c is APICallError {
  return typeof c === 'object' && c !== null && (c as Record<symbol, unknown>)[API_CALL_ERROR] === true;
}

/** The error for a call that has no key although the provider needs one. */
export function missingKeyError(who: ProviderIdentity): BatonError {
  const name = who.keyName ?? 'a key';
  return new BatonError({
    code: 'provider/auth',
    message: `No key for ${who.label}: set ${name} (environment variable for the CLI, or the key settings in the app).${
      who.keyPage ? ` Get one at ${who.keyPage}.` : ''
    }`,
    data: { provider: who.label, model: who.model, keyName: who.keyName },
  });
}

/**
 * The error for a call that succeeded (200) but brought no text: a step that got nothing has failed, and
 * what it cost is unknown. Not retried: a model that answers nothing tends to do it again, at a price.
 */
export function emptyAnswerError(who: ProviderIdentity, finishReason: string | undefined): BatonError {
  const message =
    finishReason === 'length'
      ? `${who.label} model '${who.model}' used all its output tokens without writing an answer (reasoning can use them all). Raise the worker's max output tokens or lower its reasoning effort.`
      : `${who.label} model '${who.model}' answered with no text. Try again; if it keeps happening, check the model name and the baseUrl.`;
  return new BatonError({ code: 'provider/empty-answer', message, data: { provider: who.label, model: who.model, finishReason } });
}

/** Any failure of one HTTP attempt (SDK error, fetch TypeError, other) as a BatonError. */
export function toProviderError(e: unknown, who: ProviderIdentity, secret: string | undefined): BatonError {
  if (e instanceof BatonError) return e;
  const api = findCause(e, isApiCallError);
  // A 2xx in an SDK error means the response broke off or could not be read, not an HTTP refusal.
  const status = api?.statusCode !== undefined && api.statusCode >= 400 ? api.statusCode : streamErrorStatus(e);
  // Redacted before truncation, so a key cut in half at the edge cannot survive as a prefix.
  const detail = truncate(redactSecret(detailOf(api, e), secret));
  const data = { provider: who.label, model: who.model, keyName: who.keyName, ...(status ? { status } : {}), detail };
  const make = (code: BatonError['code'], message: string, isRetryable = false, extra: Record<string, unknown> = {}) =>
    new BatonError({ code, message, data: { ...data, ...extra }, isRetryable });

  if (status !== undefined) {
    if (status === 401 || status === 403 || isGeminiKeyRefusal(api, status)) return make('provider/auth', authMessage(who, status, detail));
    if (status === 404) return make('provider/unknown-model', unknownModelMessage(who));
    if (status === 429 && isOutOfCredit(api)) {
      return make(
        'provider/rate-limit',
        `${who.label} refused the call: the account behind ${who.keyName ?? 'this key'} is out of credit or quota (429). Add credit or raise the plan's limits; waiting will not help.`,
      );
    }
    if (status === 429) {
      return make(
        'provider/rate-limit',
        `${who.label} is rate-limiting requests (429). Wait a little, run fewer calls at once, or check your plan's limits.`,
        true,
        {
          retryAfterMs: retryAfterMs(api?.responseHeaders) ?? retryInfoDelayMs(api?.responseBody),
        },
      );
    }
    if (status >= 500 || status === 408 || status === 409) {
      return make('provider/server', `${who.label} had a server error (${status}). It is usually temporary: try again in a moment.`, true, {
        retryAfterMs: retryAfterMs(api?.responseHeaders),
      });
    }
    return make('provider/bad-request', `${who.label} refused the request for model '${who.model}' (${status}): ${detail}`);
  }
  if (isBrowserFetchRefusal(e)) return make('provider/cors', corsMessage(who));
  if (api || isNetworkFailure(e)) {
    return make(
      'provider/network',
      `Could not reach ${lowerFirst(who.label)} (${detail}). Check the network connection${who.local ? ' and that the server is running' : ''}.`,
      true,
    );
  }
  return make('provider/server', `${who.label} sent an answer Baton could not read (${detail}). Try again; if it persists, check the model and baseUrl.`, true);
}

function authMessage(who: ProviderIdentity, status: number, detail: string): string {
  const check = who.keyPage ? ` Check it at ${who.keyPage}.` : ' Check the key set for this worker.';
  if (!who.keyName) {
    return `${who.label} refused the request as unauthorised (${status}). Set a key for this worker (keyEnv in the pool file, or the key settings in the app).`;
  }
  if (status === 403) return `${who.label} refused the key ${who.keyName} (403): ${detail}.${check}`;
  return `${who.label} rejected the key ${who.keyName} (${status}).${check}`;
}

function unknownModelMessage(who: ProviderIdentity): string {
  const where = who.local ? ', that the server has it loaded, and the baseUrl' : who.keyPage ? '' : ' and the baseUrl';
  return `${who.label} does not know the model '${who.model}' (404). Check the model name${where}.`;
}

function corsMessage(who: ProviderIdentity): string {
  const fix = who.local
    ? 'Start the server so that it allows this page (Ollama: OLLAMA_ORIGINS=*; vLLM: --allowed-origins), or run Baton from the CLI.'
    : 'Use a local proxy, reach the model through an OpenAI-compatible route that allows browsers (such as OpenRouter), or run Baton from the CLI.';
  return `${who.label} could not be reached from this page: the browser got no answer, which usually means the server blocks calls from web pages (CORS). ${fix}`;
}

/**
 * An error event inside a 200 stream (Anthropic's `{"type":"error","error":{"type":"overloaded_error",...}}`,
 * which the SDK passes on as the bare `error` object) read as the HTTP status the same error has outside a stream.
 */
const STATUS_OF_STREAM_ERROR: Record<string, number> = {
  invalid_request_error: 400,
  authentication_error: 401,
  permission_error: 403,
  not_found_error: 404,
  request_too_large: 413,
  rate_limit_error: 429,
  api_error: 500,
  server_error: 500,
  overloaded_error: 529,
};

function streamErrorStatus(e: unknown): number | undefined {
  if (!e || typeof e !== 'object' || e instanceof Error) return undefined;
  const type = (e as { type?: unknown }).type;
  return typeof type === 'string' ? STATUS_OF_STREAM_ERROR[type] : undefined;
}

/** OpenAI's 429 `insufficient_quota`: waiting does not help, only billing does, so it is not retried. */
function isOutOfCredit(api: APICallError | undefined): boolean {
  return /"(code|type)"\s*:\s*"insufficient_quota"/.test(api?.responseBody ?? '');
}

/** Gemini answers a bad key with 400 and reason API_KEY_INVALID. */
function isGeminiKeyRefusal(api: APICallError | undefined, status: number): boolean {
  return status === 400 && /API_KEY_INVALID|API key not valid/i.test(api?.responseBody ?? '');
}

/** What browsers throw when a request is refused before any response: the CORS case (Chrome, Firefox, Safari). */
function isBrowserFetchRefusal(e: unknown): boolean {
  const online = (globalThis as { navigator?: { onLine?: boolean } }).navigator?.onLine;
  return (
    e instanceof TypeError &&
    e.cause === undefined &&
    online !== false &&
    /^(failed to fetch|networkerror when attempting to fetch resource\.?|load failed)$/i.test(e.message)
  );
}

const NETWORK_CODES = /^(ECONN|ETIMEDOUT|ENOTFOUND|EAI_AGAIN|EPIPE|EHOSTUNREACH|ENETUNREACH|UND_ERR)/;

function isNetworkFailure(e: unknown): boolean {
  return (
    findCause(
      e,
      (c): c is Error =>
        (c instanceof TypeError && /fetch failed|terminated|failed to fetch|network/i.test(c.message)) ||
        NETWORK_CODES.test(String((c as { code?: unknown }).code ?? '')),
    ) !== undefined
  );
}

/** The provider's own words when it sent an error body, else the error's message. */
function detailOf(api: APICallError | undefined, e: unknown): string {
  const fromData = messageIn(api?.data);
  if (fromData) return fromData;
  if (api?.responseBody) {
    try {
      return messageIn(JSON.parse(api.responseBody)) ?? api.responseBody;
    } catch {
      return api.responseBody;
    }
  }
  const network = findCause(e, (c): c is Error & { code: string } => c instanceof Error && typeof (c as { code?: unknown }).code === 'string');
  if (network) return `${network.message} (${network.code})`;
  if (e instanceof Error) return e.message;
  // A stream's error event arrives as a plain object.
  return messageIn(e) ?? JSON.stringify(e) ?? String(e);
}

function messageIn(body: unknown): string | undefined {
  if (!body || typeof body !== 'object') return undefined;
  const b = body as { error?: unknown; message?: unknown };
  if (typeof b.message === 'string') return b.message;
  if (b.error && typeof b.error === 'object') return messageIn(b.error);
  return typeof b.error === 'string' ? b.error : undefined;
}

function findCause<T>(e: unknown, test: (c: unknown) => c is T): T | undefined {
  const seen = new Set<unknown>();
  for (let c = e; c !== undefined && c !== null && !seen.has(c); c = (c as { cause?: unknown }).cause) {
    if (test(c)) return c;
    seen.add(c);
  }
  return undefined;
}

function truncate(text: string): string {
  return text.length > MAX_DETAIL_CHARS ? `${text.slice(0, MAX_DETAIL_CHARS)}...` : text;
}

function lowerFirst(label: string): string {
  return label.startsWith('The ') ? `t${label.slice(1)}` : label;
}

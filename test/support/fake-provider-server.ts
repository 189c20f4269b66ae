/**
 * A real HTTP server on 127.0.0.1 that speaks the OpenAI chat completions, Anthropic Messages and Gemini
 * generateContent wire formats (JSON and SSE streams) closely enough that the AI SDK clients cannot tell.
 * Tests script what each next request gets (text, an error status, a cut stream, a slow first byte) and
 * read back every request the server saw. CORS headers and OPTIONS preflights make it usable from a page.
 * Streams follow the documented wire shapes, extras included: OpenAI's `usage: null` on every chunk and the
 * `choices: []` usage chunk only when `stream_options.include_usage` asks; Anthropic's `ping` events and
 * `error` events mid-stream; Gemini's usageMetadata on every chunk and CRLF line endings.
 *
 * Usage:
 *   const server = await startFakeProviderServer();
 *   server.script({ text: 'Paris.' }, { status: 429, headers: { 'retry-after': '1' } });
 *   server.scriptModel('gpt-4o-mini', { text: 'Lyon.' });   // for calls that run in parallel
 *   ...point a provider's baseUrl at `${server.url}/v1` (OpenAI, Anthropic) or `${server.url}/v1beta` (Gemini)
 *   server.requests[0].body.model; await server.close();
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { randomBytes } from 'node:crypto';

export type FakeProtocol = 'openai' | 'anthropic' | 'google';

/** Token counts the fake reports; `input` includes `cached`, `output` includes `reasoning` (as OpenAI counts). */
export interface FakeUsage {
  input: number;
  output: number;
  cached?: number;
  reasoning?: number;
}

/** What the server does with one request. Every field is optional; `{}` answers "ok". */
export interface FakeReply {
  /** Answer text (default "ok"). Streams split it into word chunks unless `chunks` is given. */
  text?: string;
  chunks?: string[];
  /** Thinking text sent before the answer (Anthropic thinking block, Gemini thought part, `reasoning_content`). */
  reasoning?: string;
  usage?: FakeUsage;
  /** 'length' when the answer hit the token limit. */
  finish?: 'stop' | 'length';
  /** An error status, answered with the protocol's own error body. */
  status?: number;
  errorMessage?: string;
  /** The whole error body instead of the protocol's usual one (a real body recorded from a provider). */
  errorBody?: unknown;
  /** Extra response headers, e.g. `{ 'retry-after': '1' }`. */
  headers?: Record<string, string>;
  /** Wait this long before sending anything (a slow first byte). */
  firstByteDelayMs?: number;
  /** Streams: wait this long between chunks. */
  chunkDelayMs?: number;
  /** Close the connection after this many text chunks (streams) or half the body (JSON). */
  cutAfterChunks?: number;
  /**
   * Anthropic streams: after `afterChunks` text chunks, send an `error` event (e.g. `overloaded_error`, which
   * would be a 529 outside a stream) and end the stream, as Anthropic does under load.
   */
  streamError?: { type: string; message: string; afterChunks: number };
}

export type RequestOutcome = 'pending' | 'completed' | 'cut' | 'client-closed';

export interface RecordedRequest {
  /** Date.now() when the request arrived. */
  at: number;
  method: string;
  path: string;
  query: Record<string, string>;
  /** Lower-case header names, as Node gives them. */
  headers: Record<string, string>;
  /** The parsed JSON body (undefined when there was none). */
  body: any;
  protocol?: FakeProtocol;
  model?: string;
  stream: boolean;
  /** How the exchange ended: 'client-closed' means the client hung up before the reply was complete. */
  outcome: RequestOutcome;
  /** Date.now() when the connection closed (undefined while pending). */
  closedAt?: number;
}

export interface FakeProviderServerOptions {
  /** When set, requests whose key is not in this list get the protocol's auth error (the key echoed back). */
  acceptKeys?: string[];
  /** When set, other models get the protocol's "model not found" error. */
  knownModels?: string[];
  /** The reply when the script is empty (default `{}`: "ok"). */
  fallback?: FakeReply;
}

export interface FakeProviderServer {
  /** http://127.0.0.1:PORT, no trailing slash. */
  readonly url: string;
  /** Every request seen, in arrival order (OPTIONS preflights included). */
  readonly requests: RecordedRequest[];
  /** Queue replies for the next requests, one each, in order. */
  script(...replies: FakeReply[]): void;
  /** Queue replies for the next requests naming `model`; these come before the shared queue (parallel calls). */
  scriptModel(model: string, ...replies: FakeReply[]): void;
  /** Forget the recorded requests and any unused scripted replies (between tests). */
  reset(): void;
  /** Resolves once no reply is in progress (so outcomes are final). */
  settled(): Promise<void>;
  close(): Promise<void>;
}

/** Most of these requests the server held open at once, from their arrival and close times (settled first; a close counts before an arrival of the same ms). */
export function peakConcurrency(requests: readonly RecordedRequest[]): number {
  const events = requests
    .flatMap(
      (r) =>
        [
          [r.at, 1],
          [r.closedAt!, -1],
        ] as const,
    )
    .sort((a, b) => a[0] - b[0] || a[1] - b[1]);
  let open = 0;
  let peak = 0;
  for (const [, d] of events) peak = Math.max(peak, (open += d));
  return peak;
}

/** How long a cut stream waits, after its last chunk, before closing the connection. */
const CUT_GRACE_MS = 20;

const CORS_HEADERS = {
  'access-control-allow-origin': '*',
  'access-control-allow-methods': 'GET, POST, OPTIONS',
  'access-control-allow-headers': '*',
  'access-control-expose-headers': '*',
  'access-control-max-age': '600',
};

export async function startFakeProviderServer(options: FakeProviderServerOptions = {}): Promise<FakeProviderServer> {
  const requests: RecordedRequest[] = [];
  const queue: FakeReply[] = [];
  const modelQueues = new Map<string, FakeReply[]>();
  const inFlight = new Set<Promise<void>>();

  const server = createServer((req, res) => {
    const done = handle(req, res).catch(() => void res.destroy());
    inFlight.add(done);
    void done.finally(() => inFlight.delete(done));
  });

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const at = Date.now();
    const url = new URL(req.url ?? '/', 'http://127.0.0.1');
    const raw = await readBody(req);
    const route = routeOf(url.pathname);
    const body: any = raw ? parseJson(raw) : undefined;
    const record: RecordedRequest = {
      at,
      method: req.method ?? 'GET',
      path: url.pathname,
      query: Object.fromEntries(url.searchParams),
      headers: flattenHeaders(req.headers),
      body,
      protocol: route?.protocol,
      model: route?.model ?? (typeof body?.model === 'string' ? body.model : undefined),
      stream: route?.stream ?? body?.stream === true,
      outcome: 'pending',
    };
    requests.push(record);
    res.on('close', () => {
      record.closedAt = Date.now();
      if (record.outcome === 'pending') record.outcome = res.writableFinished ? 'completed' : 'client-closed';
    });

    if (record.method === 'OPTIONS') {
      res.writeHead(204, CORS_HEADERS).end();
      return;
    }
    if (!route) {
      sendJson(res, 404, { error: { message: `fake provider server: no route for ${record.method} ${record.path}` } });
      return;
    }
    const reply = modelQueues.get(record.model ?? '')?.shift() ?? queue.shift() ?? options.fallback ?? {};
    if (reply.firstByteDelayMs) await delay(reply.firstByteDelayMs, res);
    if (res.destroyed) return;

    const key = keyOf(route.protocol, record.headers);
    const error = errorFor(reply, route.protocol, record.model, key, options);
    if (error) {
      sendJson(res, error.status, reply.errorBody ?? errorBody(route.protocol, error.status, error.message), reply.headers);
      return;
    }
    const answer = answerOf(reply, record);
    if (record.stream) await sendStream(res, route.protocol, answer, reply, record);
    else await sendWhole(res, route.protocol, answer, reply, record);
  }

  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;

  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    script: (...replies) => void queue.push(...replies),
    scriptModel: (model, ...replies) => void modelQueues.set(model, [...(modelQueues.get(model) ?? []), ...replies]),
    reset: () => {
      requests.length = 0;
      queue.length = 0;
      modelQueues.clear();
    },
    settled: async () => {
      while (inFlight.size > 0) await Promise.allSettled([...inFlight]);
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

// ---------------------------------------------------------------- routing

interface Route {
  protocol: FakeProtocol;
  model?: string;
  stream?: boolean;
}

/** Paths are matched by their ending, so any base URL prefix (`/v1`, `/api/v1`, `/v1beta`) works. */
function routeOf(path: string): Route | undefined {
  if (path.endsWith('/chat/completions')) return { protocol: 'openai' };
  if (path.endsWith('/messages')) return { protocol: 'anthropic' };
  const gemini = /\/models\/([^/:]+):(generateContent|streamGenerateContent)$/.exec(path);
  if (gemini) return { protocol: 'google', model: gemini[1], stream: gemini[2] === 'streamGenerateContent' };
  return undefined;
}

function keyOf(protocol: FakeProtocol, headers: Record<string, string>): string | undefined {
  if (protocol === 'anthropic') return headers['x-api-key'];
  if (protocol === 'google') return headers['x-goog-api-key'];
  return headers['authorization']?.replace(/^Bearer /, '');
}

// ---------------------------------------------------------------- replies

interface Answer {
  /** An id in the provider's own shape (`chatcmpl-...`, `msg_01...`), new for each request. */
  id: string;
  model: string;
  chunks: string[];
  reasoning?: string;
  usage: Required<FakeUsage>;
  finish: 'stop' | 'length';
  /** OpenAI streams carry usage only when the request asked with `stream_options.include_usage`. */
  streamUsage: boolean;
}

function answerOf(reply: FakeReply, record: RecordedRequest): Answer {
  const text = reply.chunks ? reply.chunks.join('') : (reply.text ?? 'ok');
  const chunks = reply.chunks ?? text.match(/\S+\s*|\s+/g) ?? [''];
  const usage = reply.usage ?? { input: 10, output: chunks.length };
  const suffix = randomBytes(18).toString('base64url').replace(/[-_]/g, 'x');
  const id = { openai: `chatcmpl-${suffix}`, anthropic: `msg_01${suffix}`, google: suffix.slice(0, 22) }[record.protocol ?? 'openai'];
  return {
    id,
    model: record.model ?? 'fake-model',
    chunks,
    reasoning: reply.reasoning,
    usage: { cached: 0, reasoning: 0, ...usage },
    finish: reply.finish ?? 'stop',
    streamUsage: record.body?.stream_options?.include_usage === true,
  };
}

/** The error this request gets, if any: scripted, or a refused key, or an unknown model. */
function errorFor(
  reply: FakeReply,
  protocol: FakeProtocol,
  model: string | undefined,
  key: string | undefined,
  options: FakeProviderServerOptions,
): { status: number; message: string } | undefined {
  if (reply.status !== undefined && reply.status !== 200) {
    return { status: reply.status, message: reply.errorMessage ?? defaultErrorMessage(reply.status, model, key) };
  }
  if (options.acceptKeys && !options.acceptKeys.includes(key ?? '')) {
    // Gemini answers a bad key with 400 INVALID_ARGUMENT, not 401.
    if (protocol === 'google') return { status: 400, message: `API key not valid. Please pass a valid API key. (${key})` };
    return { status: 401, message: defaultErrorMessage(401, model, key) };
  }
  if (options.knownModels && !options.knownModels.includes(model ?? '')) {
    return { status: 404, message: defaultErrorMessage(404, model, key) };
  }
  return undefined;
}

function defaultErrorMessage(status: number, model: string | undefined, key: string | undefined): string {
  // Real providers echo (part of) the key they refused; echoing all of it tests that Baton redacts it.
  if (status === 401) return `Incorrect API key provided: ${key ?? '(none)'}.`;
  if (status === 404) return `The model '${model}' does not exist or you do not have access to it.`;
  if (status === 429) return 'Rate limit reached. Please try again later.';
  if (status >= 500) return 'The server had an error while processing your request.';
  return 'Bad request.';
}

function errorBody(protocol: FakeProtocol, status: number, message: string): unknown {
  if (protocol === 'anthropic') {
    const type =
      { 401: 'authentication_error', 403: 'permission_error', 404: 'not_found_error', 429: 'rate_limit_error', 529: 'overloaded_error' }[status] ??
      (status >= 500 ? 'api_error' : 'invalid_request_error');
    return { type: 'error', error: { type, message } };
  }
  if (protocol === 'google') {
    const googleStatus = { 400: 'INVALID_ARGUMENT', 401: 'UNAUTHENTICATED', 404: 'NOT_FOUND', 429: 'RESOURCE_EXHAUSTED' }[status] ?? 'INTERNAL';
    const reason = message.startsWith('API key not valid') ? 'API_KEY_INVALID' : undefined;
    const details = reason ? [{ '@type': 'type.googleapis.com/google.rpc.ErrorInfo', reason, domain: 'googleapis.com' }] : undefined;
    return { error: { code: status, message, status: googleStatus, ...(details ? { details } : {}) } };
  }
  const code = { 401: 'invalid_api_key', 404: 'model_not_found', 429: 'rate_limit_exceeded' }[status] ?? null;
  return { error: { message, type: status >= 500 ? 'server_error' : 'invalid_request_error', param: null, code } };
}

/** A non-streamed answer, or half of one when the reply says to cut. */
async function sendWhole(res: ServerResponse, protocol: FakeProtocol, a: Answer, reply: FakeReply, record: RecordedRequest) {
  const body = JSON.stringify(wholeBody(protocol, a));
  if (reply.cutAfterChunks !== undefined) {
    res.writeHead(200, { 'content-type': 'application/json', ...CORS_HEADERS, ...reply.headers });
    res.write(body.slice(0, Math.floor(body.length / 2)));
    record.outcome = 'cut';
    res.destroy();
    return;
  }
  sendJson(res, 200, JSON.parse(body), reply.headers);
}

function wholeBody(protocol: FakeProtocol, a: Answer): unknown {
  const text = a.chunks.join('');
  if (protocol === 'openai') {
    return {
      id: a.id,
      object: 'chat.completion',
      created: 1_700_000_000,
      model: a.model,
      choices: [
        {
          index: 0,
          message: {
            role: 'assistant',
            content: text,
            refusal: null,
            annotations: [],
            ...(a.reasoning ? { reasoning_content: a.reasoning } : {}),
          },
          logprobs: null,
          finish_reason: a.finish,
        },
      ],
      usage: openaiUsage(a.usage),
      service_tier: 'default',
      system_fingerprint: OPENAI_FINGERPRINT,
    };
  }
  if (protocol === 'anthropic') {
    const content = [...(a.reasoning ? [{ type: 'thinking', thinking: a.reasoning, signature: 'fake-signature' }] : []), { type: 'text', text }];
    return {
      id: a.id,
      type: 'message',
      role: 'assistant',
      model: a.model,
      content,
      stop_reason: a.finish === 'length' ? 'max_tokens' : 'end_turn',
      stop_sequence: null,
      usage: anthropicUsage(a.usage, a.usage.output),
    };
  }
  return geminiChunk(a, [...(a.reasoning ? [{ text: a.reasoning, thought: true }] : []), { text }], true);
}

/** A streamed answer as the protocol's SSE events; cut or slowed as the reply says. */
async function sendStream(res: ServerResponse, protocol: FakeProtocol, a: Answer, reply: FakeReply, record: RecordedRequest) {
  res.writeHead(200, {
    'content-type': 'text/event-stream',
    'cache-control': 'no-cache',
    connection: 'keep-alive',
    ...CORS_HEADERS,
    ...reply.headers,
  });
  const events = streamEvents(protocol, a);
  // Gemini (like Vertex AI) ends SSE lines with CRLF; OpenAI and Anthropic with LF.
  const eol = protocol === 'google' ? '\r\n' : '\n';
  let textChunksSent = 0;
  for (const event of events) {
    if (res.destroyed) return;
    if (event.isText) {
      if (protocol === 'anthropic' && reply.streamError && textChunksSent === reply.streamError.afterChunks) {
        const { type, message } = reply.streamError;
        res.end(`event: error\ndata: ${JSON.stringify({ type: 'error', error: { type, message } })}\n\n`);
        return;
      }
      if (reply.cutAfterChunks !== undefined && textChunksSent === reply.cutAfterChunks) {
        // Let what was sent reach the client first, so it sees a stream that breaks off, not one that never began.
        await delay(CUT_GRACE_MS, res);
        record.outcome = 'cut';
        res.destroy();
        return;
      }
      if (reply.chunkDelayMs && textChunksSent > 0) await delay(reply.chunkDelayMs, res);
      textChunksSent++;
    }
    if (res.destroyed) return;
    const line = `${event.name ? `event: ${event.name}${eol}` : ''}data: ${event.data}${eol}${eol}`;
    await new Promise((resolve) => res.write(line, resolve));
  }
  res.end();
}

interface SseEvent {
  name?: string;
  data: string;
  /** Carries a piece of the answer text (what `cutAfterChunks` and `chunkDelayMs` count). */
  isText?: boolean;
}

function streamEvents(protocol: FakeProtocol, a: Answer): SseEvent[] {
  if (protocol === 'openai') return openaiEvents(a);
  if (protocol === 'anthropic') return anthropicEvents(a);
  return geminiEvents(a);
}

/**
 * OpenAI's chunks: every one carries `usage: null` when usage was asked for, then one last chunk with
 * `choices: []` and the usage before `[DONE]`; without `stream_options.include_usage` no usage at all.
 */
function openaiEvents(a: Answer): SseEvent[] {
  const chunk = (delta: unknown, finish: string | null = null, usage: unknown = null) =>
    JSON.stringify({
      id: a.id,
      object: 'chat.completion.chunk',
      created: 1_700_000_000,
      model: a.model,
      service_tier: 'default',
      system_fingerprint: OPENAI_FINGERPRINT,
      choices: delta === undefined ? [] : [{ index: 0, delta, logprobs: null, finish_reason: finish }],
      ...(a.streamUsage ? { usage } : {}),
      obfuscation: 'Xq3',
    });
  return [
    { data: chunk({ role: 'assistant', content: '', refusal: null }) },
    ...(a.reasoning ? [{ data: chunk({ reasoning_content: a.reasoning }) }] : []),
    ...a.chunks.map((text) => ({ data: chunk({ content: text }), isText: true })),
    { data: chunk({}, a.finish) },
    ...(a.streamUsage ? [{ data: chunk(undefined, null, openaiUsage(a.usage)) }] : []),
    { data: '[DONE]' },
  ];
}

function anthropicEvents(a: Answer): SseEvent[] {
  const event = (name: string, data: object, isText = false): SseEvent => ({
    name,
    data: JSON.stringify({ type: name, ...data }),
    isText,
  });
  const textIndex = a.reasoning ? 1 : 0;
  return [
    event('message_start', {
      message: {
        id: a.id,
        type: 'message',
        role: 'assistant',
        model: a.model,
        content: [],
        stop_reason: null,
        stop_sequence: null,
        usage: anthropicUsage(a.usage, 1),
      },
    }),
    // Anthropic streams may hold any number of keep-alive pings.
    event('ping', {}),
    ...(a.reasoning
      ? [
          event('content_block_start', { index: 0, content_block: { type: 'thinking', thinking: '', signature: '' } }),
          event('content_block_delta', { index: 0, delta: { type: 'thinking_delta', thinking: a.reasoning } }),
          event('content_block_delta', { index: 0, delta: { type: 'signature_delta', signature: 'fake-signature' } }),
          event('content_block_stop', { index: 0 }),
        ]
      : []),
    event('content_block_start', { index: textIndex, content_block: { type: 'text', text: '' } }),
    event('ping', {}),
    ...a.chunks.map((text) => event('content_block_delta', { index: textIndex, delta: { type: 'text_delta', text } }, true)),
    event('content_block_stop', { index: textIndex }),
    event('message_delta', {
      delta: { stop_reason: a.finish === 'length' ? 'max_tokens' : 'end_turn', stop_sequence: null },
      usage: { output_tokens: a.usage.output },
    }),
    event('message_stop', {}),
  ];
}

function geminiEvents(a: Answer): SseEvent[] {
  return [
    ...(a.reasoning ? [{ data: JSON.stringify(geminiChunk(a, [{ text: a.reasoning, thought: true }], false)) }] : []),
    ...a.chunks.map((text, i) => ({
      data: JSON.stringify(geminiChunk(a, [{ text }], i === a.chunks.length - 1)),
      isText: true,
    })),
  ];
}

/**
 * One Gemini response object. Every streamed one carries usageMetadata so far (the prompt from the first,
 * the candidates' count growing); the finish reason and the final counts ride on the last.
 * `candidatesTokenCount` leaves out thoughts, `promptTokenCount` includes cached content.
 */
function geminiChunk(a: Answer, parts: object[], last: boolean): unknown {
  const candidates = last ? a.usage.output - a.usage.reasoning : 0;
  const thoughts = a.usage.reasoning;
  return {
    candidates: [{ content: { parts, role: 'model' }, index: 0, ...(last ? { finishReason: a.finish === 'length' ? 'MAX_TOKENS' : 'STOP' } : {}) }],
    usageMetadata: {
      promptTokenCount: a.usage.input,
      ...(last ? { candidatesTokenCount: candidates } : {}),
      totalTokenCount: a.usage.input + candidates + thoughts,
      ...(a.usage.cached ? { cachedContentTokenCount: a.usage.cached } : {}),
      promptTokensDetails: [{ modality: 'TEXT', tokenCount: a.usage.input }],
      ...(thoughts ? { thoughtsTokenCount: thoughts } : {}),
    },
    modelVersion: a.model,
    responseId: a.id,
  };
}

const OPENAI_FINGERPRINT = 'fp_560af6e559';

function openaiUsage(u: Required<FakeUsage>) {
  return {
    prompt_tokens: u.input,
    completion_tokens: u.output,
    total_tokens: u.input + u.output,
    prompt_tokens_details: { cached_tokens: u.cached, audio_tokens: 0 },
    completion_tokens_details: { reasoning_tokens: u.reasoning, audio_tokens: 0, accepted_prediction_tokens: 0, rejected_prediction_tokens: 0 },
  };
}

/** Anthropic counts cache reads apart from `input_tokens`. */
function anthropicUsage(u: Required<FakeUsage>, output: number) {
  return {
    input_tokens: u.input - u.cached,
    cache_creation_input_tokens: 0,
    cache_read_input_tokens: u.cached,
    cache_creation: { ephemeral_5m_input_tokens: 0, ephemeral_1h_input_tokens: 0 },
    output_tokens: output,
    service_tier: 'standard',
  };
}

// ---------------------------------------------------------------- plumbing

function sendJson(res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}) {
  res.writeHead(status, { 'content-type': 'application/json', ...CORS_HEADERS, ...headers });
  res.end(JSON.stringify(body));
}

function readBody(req: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    let data = '';
    req.setEncoding('utf8');
    req.on('data', (part: string) => (data += part));
    req.on('end', () => resolve(data));
    req.on('error', reject);
  });
}

function parseJson(raw: string): unknown {
  try {
    return JSON.parse(raw);
  } catch {
    return raw;
  }
}

function flattenHeaders(headers: IncomingMessage['headers']): Record<string, string> {
  const flat: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers)) {
    if (value !== undefined) flat[name] = Array.isArray(value) ? value.join(', ') : value;
  }
  return flat;
}

/** Waits, but gives up early when the client hangs up. */
function delay(ms: number, res: ServerResponse): Promise<void> {
  return new Promise((resolve) => {
    const timer = setTimeout(done, ms);
    res.once('close', done);
    function done() {
      clearTimeout(timer);
      res.off('close', done);
      resolve();
    }
  });
}

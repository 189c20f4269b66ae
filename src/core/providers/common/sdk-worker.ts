/**
 * The bridge from an AI SDK language model to Baton's WorkerModel: streams through `onDelta` (or one
 * non-streamed request when nobody listens), maps usage, and wraps every call in Baton's own retries,
 * timeout, abort and error mapping. Each provider folder only builds the SDK model and its settings.
 */
import type { LanguageModel, LanguageModelUsage, ModelMessage, streamText } from 'ai';
import { BatonError } from '../../errors/index.ts';
import type { CallRequest, CallResult, ChatMessage, WorkerModel, WorkerSpec } from '../types.ts';
import { callDeadline, DEFAULT_CALL_TIMEOUT_MS } from './call-deadline.ts';
import { emptyAnswerError, missingKeyError, toProviderError } from './provider-error.ts';
import type { ProviderIdentity } from './provider-identity.ts';
import { DEFAULT_RETRY_POLICY, retrying, type RetryPolicy } from './retry.ts';
import { toUsage } from './usage.ts';

/** What every network provider gets from its caller. The key stays here and in the SDK's headers only. */
export interface NetworkWorkerContext {
  apiKey?: string;
  /** The name of the key (environment variable or key-store slot), for messages. */
  keyName?: string;
  /** Replaces global fetch (tests, proxies). */
  fetch?: typeof fetch;
  retry?: Partial<RetryPolicy>;
}

/** Settings for one SDK call, built by the provider from the request and its spec. */
type SdkCallSettings = Pick<Parameters<typeof streamText>[0], 'maxOutputTokens' | 'temperature' | 'providerOptions'>;

interface SdkWorkerOptions {
  spec: WorkerSpec;
  /** Builds the SDK model on first call: the SDK loads only when a network worker is actually used. */
  model: () => Promise<LanguageModel>;
  identity: ProviderIdentity;
  /** Why a trailing assistant message cannot be honoured as a prefill; undefined when it can. */
  noPrefillReason?: string;
  settings(call: { maxTokens?: number; temperature?: number }): SdkCallSettings;
  context: NetworkWorkerContext;
}

interface AttemptResult {
  text: string;
  usage: LanguageModelUsage | undefined;
  finishReason: string | undefined;
}

export function createSdkWorker(options: SdkWorkerOptions): WorkerModel {
  const { spec, model, identity, noPrefillReason, context } = options;
  const supportsPrefill = noPrefillReason === undefined;
  const policy: RetryPolicy = { ...DEFAULT_RETRY_POLICY, ...context.retry };
  let loaded: Promise<LanguageModel> | undefined;

  async function call(req: CallRequest): Promise<CallResult> {
    const started = performance.now();
    if (identity.needsKey && !context.apiKey) throw missingKeyError(identity);
    const messages = prepareMessages(req.messages, noPrefillReason, identity);
    const settings = options.settings({
      maxTokens: req.maxTokens ?? spec.maxTokens,
      temperature: req.temperature ?? spec.temperature,
    });
    const sdkModel = await (loaded ??= loadModel(model));
    const deadline = callDeadline(identity, req.timeoutMs ?? DEFAULT_CALL_TIMEOUT_MS, req.signal);
    // The text of the attempt in progress, reported with a stream that breaks off after sending some.
    let received = '';
    const onDelta = req.onDelta && ((text: string) => ((received += text), req.onDelta!(text)));
    try {
      const { value, attempts } = await retrying(
        async () => {
          received = '';
          try {
            const request = { model: sdkModel, messages, settings, signal: deadline.signal };
            const answer = onDelta ? await streamOnce(request, onDelta) : await generateOnce(request);
            if (answer.text.trim() === '') throw emptyAnswerError(identity, answer.finishReason);
            return answer;
          } catch (e) {
            const error = deadline.stopError() ?? toProviderError(e, identity, context.apiKey);
            throw received ? brokenOff(error, received, identity) : error;
          }
        },
        { policy, signal: deadline.signal, canRetry: () => received === '' || req.retryCutStreams === true },
      );
      return {
        text: value.text,
        usage: toUsage(value.usage),
        latencyMs: performance.now() - started,
        attempts,
        ...(value.finishReason ? { finishReason: value.finishReason } : {}),
      };
    } catch (e) {
      // An abort during a backoff wait surfaces as the signal's reason, not as a BatonError.
      throw e instanceof BatonError ? e : (deadline.stopError() ?? toProviderError(e, identity, context.apiKey));
    } finally {
      deadline.dispose();
    }
  }

  return { spec, supportsPrefill, call };
}

/**
 * Loads the SDK model with the SDK's console warnings off (unless the embedding app chose a logger): they
 * would add lines to the CLI's stderr, which promises one line per failure, and they speak of SDK
 * settings the user never wrote.
 */
function loadModel(model: () => Promise<LanguageModel>): Promise<LanguageModel> {
  const global = globalThis as { AI_SDK_LOG_WARNINGS?: unknown };
  global.AI_SDK_LOG_WARNINGS ??= false;
  return model();
}

/** A stream that failed after showing text: the caller decides whether to ask again, knowing what it saw. */
function brokenOff(error: BatonError, partialText: string, who: ProviderIdentity): BatonError {
  if (error.code !== 'provider/network' && error.code !== 'provider/server') return error;
  return new BatonError({
    code: error.code,
    message: `${who.label} stopped sending the answer of '${who.model}' after ${partialText.length} characters (${String(
      error.data?.detail ?? 'connection lost',
    )}). Try the step again.`,
    data: { ...error.data, partialText },
    isRetryable: true,
  });
}

interface SdkRequest {
  model: LanguageModel;
  messages: ModelMessage[];
  settings: SdkCallSettings;
  signal: AbortSignal;
}

async function streamOnce(r: SdkRequest, onDelta: (text: string) => void): Promise<AttemptResult> {
  const { streamText } = await import('ai');
  const result = streamText({
    model: r.model,
    messages: r.messages,
    allowSystemInMessages: true,
    maxRetries: 0,
    abortSignal: r.signal,
    // The default handler logs the SDK error, whose bodies may echo the key; errors arrive as parts below.
    onError: () => {},
    ...r.settings,
  });
  let text = '';
  let usage: LanguageModelUsage | undefined;
  let finishReason: string | undefined;
  for await (const part of result.fullStream) {
    if (part.type === 'text-delta' && part.text) {
      text += part.text;
      onDelta(part.text);
    } else if (part.type === 'error') {
      throw part.error;
    } else if (part.type === 'abort') {
      throw new DOMException('The call was aborted.', 'AbortError');
    } else if (part.type === 'finish') {
      usage = part.totalUsage;
      finishReason = part.finishReason;
    }
  }
  return { text, usage, finishReason };
}

async function generateOnce(r: SdkRequest): Promise<AttemptResult> {
  const { generateText } = await import('ai');
  const result = await generateText({
    model: r.model,
    messages: r.messages,
    allowSystemInMessages: true,
    maxRetries: 0,
    abortSignal: r.signal,
    ...r.settings,
  });
  return { text: result.text, usage: result.totalUsage, finishReason: result.finishReason };
}

/**
 * Baton's chat messages as the SDK's. A trailing assistant message is a prefill; where the provider
 * cannot honour one, sending it would silently change its meaning, so the call is refused instead.
 */
function prepareMessages(messages: ChatMessage[], noPrefillReason: string | undefined, who: ProviderIdentity): ModelMessage[] {
  const last = messages.at(-1);
  if (last?.role !== 'assistant') return messages.map((m) => ({ role: m.role, content: m.content }));
  if (noPrefillReason !== undefined) {
    throw new BatonError({
      code: 'provider/unsupported',
      message: `${who.label} model '${who.model}' cannot continue a prefilled answer: ${noPrefillReason}. Send the messages without the trailing assistant message.`,
      data: { provider: who.label, model: who.model },
    });
  }
  // Anthropic refuses a prefill that ends in whitespace.
  return [...messages.slice(0, -1), { role: 'assistant', content: last.content.trimEnd() }];
}

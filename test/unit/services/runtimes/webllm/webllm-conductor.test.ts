import {
  ModelType,
  postInitAndCheckFieldsChatCompletion,
  type ChatCompletionChunk,
  type ChatCompletionRequestStreaming,
  type CompletionUsage,
  type MLCEngine,
  type WebWorkerMLCEngine,
} from '@mlc-ai/web-llm';
import { describe, expect, it } from 'vitest';
import { createWebllmConductor, toWebllmError, type WebllmChatEngine } from '../../../../../src/services/runtimes/webllm/index.ts';
import { BatonError } from '../../../../../src/core/errors/index.ts';
import type { ChatMessage } from '../../../../../src/core/providers/types.ts';

// Compile-time: web-llm's engines (in the thread and behind a worker) are what the Conductor takes.
const inThread = (e: MLCEngine): WebllmChatEngine => e;
const behindWorker = (e: WebWorkerMLCEngine): WebllmChatEngine => e;
void inThread;
void behindWorker;

const MODEL = 'Qwen2.5-7B-Instruct-q4f16_1-MLC';
const PREFILL = 'Let us think step by step.';
const messages: ChatMessage[] = [
  { role: 'system', content: 'You coordinate a team of models.' },
  { role: 'user', content: 'Question: what is 2+2? Models: 0, 1.' },
  { role: 'assistant', content: PREFILL },
];
const USAGE: CompletionUsage = {
  prompt_tokens: 812,
  completion_tokens: 9,
  total_tokens: 821,
  extra: { e2e_latency_s: 1.5, prefill_tokens_per_s: 900, decode_tokens_per_s: 30, time_to_first_token_s: 0.9, time_per_output_token_s: 0.033 },
};

function chunk(content: string | null, finish: ChatCompletionChunk.Choice['finish_reason'] = null): ChatCompletionChunk {
  return {
    id: 'chatcmpl-7',
    object: 'chat.completion.chunk',
    created: 1764460800,
    model: MODEL,
    choices: [{ index: 0, delta: content === null ? {} : { role: 'assistant', content }, finish_reason: finish, logprobs: null }],
  };
}

/** Streams like web-llm: content deltas, a finishing chunk, then a usage chunk with no choices. */
class EngineDouble implements WebllmChatEngine {
  readonly requests: ChatCompletionRequestStreaming[] = [];
  interrupts = 0;
  #interrupted = false;

  constructor(
    readonly pieces: string[],
    readonly failAt?: { index: number; error: unknown },
    /** Resolves when create() may return: lets a test abort while web-llm is still starting. */
    readonly started: Promise<void> = Promise.resolve(),
  ) {}

  chat = {
    completions: {
      create: async (request: ChatCompletionRequestStreaming): Promise<AsyncIterable<ChatCompletionChunk>> => {
        this.requests.push(request);
        if (this.failAt?.index === -1) throw this.failAt.error;
        await this.started;
        return this.#stream(request);
      },
    },
  };

  interruptGenerate(): void {
    this.interrupts += 1;
    this.#interrupted = true;
  }

  async *#stream(request: ChatCompletionRequestStreaming): AsyncGenerator<ChatCompletionChunk> {
    // As web-llm does when the prompt's prefill starts.
    this.#interrupted = false;
    for (const [i, piece] of this.pieces.entries()) {
      if (this.failAt?.index === i) throw this.failAt.error;
      if (this.#interrupted) {
        yield chunk(null, 'abort');
        return;
      }
      yield chunk(piece);
    }
    yield chunk(null, 'stop');
    if (request.stream_options?.include_usage) yield { ...chunk(null), choices: [], usage: USAGE };
  }
}

const sampling = { temperature: 1, maxNewTokens: 2048, seed: 42 };

async function rejection(p: Promise<unknown>): Promise<BatonError> {
  const e = await p.then(
    () => undefined,
    (err: unknown) => err,
  );
  if (!(e instanceof BatonError)) throw new Error(`expected a BatonError, got ${String(e)}`);
  return e;
}

describe('createWebllmConductor', () => {
  it('sends the prefill inside the user message, streams deltas and returns the continuation with usage', async () => {
    const engine = new EngineDouble(['Let us think', ' step by step.', ' One worker', ' suffices.\nmodel_id = [0]']);
    const conductor = createWebllmConductor(engine, { modelId: MODEL, thinks: false }, sampling);
    const deltas: string[] = [];
    const out = await conductor.generate({ messages, onDelta: (d) => deltas.push(d) });
    expect(out).toEqual({ text: ' One worker suffices.\nmodel_id = [0]', usage: { input: 812, output: 9 } });
    expect(deltas.join('')).toBe(out.text);
    expect(engine.requests).toEqual([
      {
        model: MODEL,
        messages: [messages[0], { role: 'user', content: `${messages[1].content}\n\nBegin your reply with exactly these words, then go on: ${PREFILL}` }],
        stream: true,
        stream_options: { include_usage: true },
        max_tokens: 2048,
        temperature: 1,
        seed: 42,
      },
    ]);
    expect(conductor.info).toEqual({ runtime: 'webllm', model: MODEL, sampling: { temperature: 1, maxNewTokens: 2048, seed: 42 } });
  });

  it("builds a request web-llm's own validation accepts, where the raw Conductor messages are refused", async () => {
    const engine = new EngineDouble(['ok']);
    await createWebllmConductor(engine, { modelId: 'Qwen3-4B-q4f32_1-MLC', thinks: true }, { ...sampling, topP: 0.9 }).generate({ messages });
    const [request] = engine.requests;
    expect(request.extra_body).toEqual({ enable_thinking: false });
    expect(request.top_p).toBe(0.9);
    expect(() => postInitAndCheckFieldsChatCompletion(structuredClone(request), request.model!, ModelType.LLM)).not.toThrow();
    let refused: unknown;
    try {
      postInitAndCheckFieldsChatCompletion({ ...request, messages }, request.model!, ModelType.LLM);
    } catch (e) {
      refused = e;
    }
    expect((refused as Error).name).toBe('MessageOrderError');
    expect(toWebllmError(refused).code).toBe('internal');
  });

  it('interrupts web-llm when the signal aborts and rejects with run/aborted', async () => {
    const engine = new EngineDouble(['model_id', ' = [0', ']', '\nsubtasks']);
    const controller = new AbortController();
    const conductor = createWebllmConductor(engine, { modelId: MODEL, thinks: false }, sampling);
    const e = await rejection(conductor.generate({ messages: messages.slice(0, 2), signal: controller.signal, onDelta: () => controller.abort() }));
    expect(e.code).toBe('run/aborted');
    expect(engine.interrupts).toBe(1);
  });

  it('asks again when the abort came before web-llm started generating', async () => {
    let start = () => {};
    const engine = new EngineDouble(['a', 'b', 'c'], undefined, new Promise((resolve) => (start = resolve)));
    const controller = new AbortController();
    const deltas: string[] = [];
    const running = createWebllmConductor(engine, { modelId: MODEL, thinks: false }, sampling).generate({
      messages,
      signal: controller.signal,
      onDelta: (d) => deltas.push(d),
    });
    controller.abort();
    start();
    expect((await rejection(running)).code).toBe('run/aborted');
    expect(engine.interrupts).toBe(2);
    expect(deltas).toEqual([]);
  });

  it('does not start when the signal is already aborted', async () => {
    const engine = new EngineDouble(['x']);
    const controller = new AbortController();
    controller.abort();
    const e = await rejection(createWebllmConductor(engine, { modelId: MODEL, thinks: false }, sampling).generate({ messages, signal: controller.signal }));
    expect(e.code).toBe('run/aborted');
    expect(engine.requests).toHaveLength(0);
  });

  it("maps web-llm's failures, thrown as errors or as a worker's strings", async () => {
    const lost = new EngineDouble([], { index: -1, error: 'DeviceLostError: The WebGPU device was lost while loading the model.' });
    expect((await rejection(createWebllmConductor(lost, { modelId: MODEL, thinks: false }, sampling).generate({ messages }))).code).toBe(
      'engine/out-of-memory',
    );
    const midway = Object.assign(new Error('Device is lost'), { name: 'OperationError' });
    const broken = new EngineDouble(['a', 'b'], { index: 1, error: midway });
    expect((await rejection(createWebllmConductor(broken, { modelId: MODEL, thinks: false }, sampling).generate({ messages }))).code).toBe(
      'engine/device-lost',
    );
  });

  it('reports a real, unloaded MLCEngine as not loaded', async () => {
    const { MLCEngine } = await import('@mlc-ai/web-llm');
    const conductor = createWebllmConductor(new MLCEngine({ logLevel: 'ERROR' }), { modelId: MODEL, thinks: false }, sampling);
    const e = await rejection(conductor.generate({ messages }));
    expect(e.code).toBe('run/config');
    expect(e.data?.webllm).toBe('ModelNotLoadedError');
  });
});

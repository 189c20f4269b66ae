/**
 * A Conductor on web-llm: Baton's Conductor messages go through web-llm's OpenAI-style streaming chat
 * API, deltas reach `onDelta` as they come, and an abort interrupts the generation. The output carries
 * text and usage only: web-llm returns token strings rather than token ids, so the episode cannot be
 * re-scored for training, and its logprobs (top-5 at most) are left out as well.
 */
import type { ChatCompletionChunk, ChatCompletionRequestStreaming, CompletionUsage } from '@mlc-ai/web-llm';
import type { WebllmSampling } from '../../../core/conductor/index.ts';
import { BatonError } from '../../../core/errors/index.ts';
import type { Conductor, ConductorOutput, ConductorRequest } from '../../../core/orchestra/index.ts';
import type { Usage } from '../../../core/providers/index.ts';
import type { WebllmModelChoice } from './model-choices.ts';
import { PrefillEchoCutter, prefillAsInstruction } from './prefill.ts';
import { toWebllmError } from './webllm-error.ts';

/** The part of MLCEngine (and of WebWorkerMLCEngine, its worker proxy) the Conductor uses. */
export interface WebllmChatEngine {
  chat: { completions: { create(request: ChatCompletionRequestStreaming): Promise<AsyncIterable<ChatCompletionChunk>> } };
  interruptGenerate(): void;
}

function stopped(cause?: unknown): BatonError {
  return new BatonError({ code: 'run/aborted', message: 'Stopped.', ...(cause === undefined ? {} : { cause }) });
}

function toUsage(usage: CompletionUsage): Usage {
  return { input: usage.prompt_tokens, output: usage.completion_tokens };
}

export function createWebllmConductor(engine: WebllmChatEngine, choice: Pick<WebllmModelChoice, 'modelId' | 'thinks'>, sampling: WebllmSampling): Conductor {
  return {
    info: {
      runtime: 'webllm',
      model: choice.modelId,
      sampling: {
        temperature: sampling.temperature,
        ...(sampling.topP === undefined ? {} : { topP: sampling.topP }),
        maxNewTokens: sampling.maxNewTokens,
        ...(sampling.seed === undefined ? {} : { seed: sampling.seed }),
      },
    },
    async generate(req: ConductorRequest): Promise<ConductorOutput> {
      if (req.signal?.aborted) throw stopped();
      const { messages, prefill } = prefillAsInstruction(req.messages);
      const request: ChatCompletionRequestStreaming = {
        model: choice.modelId,
        messages,
        stream: true,
        stream_options: { include_usage: true },
        max_tokens: sampling.maxNewTokens,
        temperature: sampling.temperature,
        ...(sampling.topP === undefined ? {} : { top_p: sampling.topP }),
        ...(sampling.seed === undefined ? {} : { seed: sampling.seed }),
        // web-llm's enable_thinking=false writes an empty <think> block, so it is for thinking models only.
        ...(choice.thinks ? { extra_body: { enable_thinking: false } } : {}),
      };
      const interrupt = () => engine.interruptGenerate();
      req.signal?.addEventListener('abort', interrupt, { once: true });
      const cutter = new PrefillEchoCutter(prefill);
      let text = '';
      let usage: Usage | undefined;
      let interrupted = false;
      const emit = (piece: string) => {
        if (piece === '') return;
        text += piece;
        req.onDelta?.(piece);
      };
      try {
        const stream = await engine.chat.completions.create(request);
        for await (const chunk of stream) {
          // web-llm clears its stop flag when the prompt's prefill starts, so an interrupt sent before
          // that is lost: ask again until the stream ends (it then ends with finish_reason "abort").
          if (req.signal?.aborted) {
            if (chunk.choices[0]?.finish_reason !== 'abort') engine.interruptGenerate();
            continue;
          }
          const choice0 = chunk.choices[0];
          if (choice0?.delta.content) emit(cutter.push(choice0.delta.content));
          if (choice0?.finish_reason === 'abort') interrupted = true;
          if (chunk.usage) usage = toUsage(chunk.usage);
        }
      } catch (e) {
        if (req.signal?.aborted) throw stopped(e);
        throw toWebllmError(e);
      } finally {
        req.signal?.removeEventListener('abort', interrupt);
      }
      if (interrupted || req.signal?.aborted) throw stopped();
      emit(cutter.flush());
      return { text, ...(usage ? { usage } : {}) };
    },
  };
}

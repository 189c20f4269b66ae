/**
 * A Conductor on Baton's WebGPU engine: the chat rendered with the model's own template, continuing
 * the assistant prefill, then sampled token by token. With `constrain`, every token is drawn from the
 * workflow constraint's mask (GpuModel.generate's allowedTokens), so the answer
 * always parses for this pool; end-of-sequence ends it. Text streams out through a decode stream.
 * The logprobs returned are the runtime's: over the whole vocabulary at the sampling temperature
 * (unmasked), the same quantity EnginePolicy records and GRPO recomputes from the token ids.
 * Tested by test/engine/services/conductor/engine-conductor.test.ts (Node on Dawn).
 */
import type { ConductorInfo } from '../../core/episodes/index.ts';
import { isRecursionRound, type Conductor, type ConductorOutput, type ConductorRequest } from '../../core/orchestra/index.ts';
import type { ChatMessage } from '../../core/providers/index.ts';
import type { AccessMode } from '../../core/workflow/index.ts';
import { workflowConstraintFor, type WorkflowFormat } from '../../core/workflow/constrain/index.ts';
import type { GpuModel, SamplingOptions } from '../../engine/index.ts';
import { createDecodeStream, type Tokenizer } from '../../engine/tokenizer/index.ts';

export interface EngineConductorOptions {
  model: GpuModel;
  tokenizer: Tokenizer;
  /** Pool size: model ids are below it. */
  workers: number;
  maxSteps: number;
  access: AccessMode;
  sampling: SamplingOptions;
  /** Sample only tokens that keep the answer a valid workflow. */
  constrain: boolean;
  /** Free reasoning before the lists (default true); false makes the answer the lists alone. */
  allowReasoning?: boolean;
  /** Longest subtask the constraint allows (the constraint's default otherwise). */
  maxSubtaskChars?: number;
  /** Subtasks written as these texts (a routing Conductor, as the demo Conductor was trained). */
  fixedSubtasks?: readonly string[];
  maxNewTokens: number;
  info: ConductorInfo;
  /** The first round's prompt in place of the request's (the Train page's compact prompt, which a trained adapter expects). */
  firstRoundMessages?: ChatMessage[];
  /** Chat template variables, e.g. { enable_thinking: false } for Qwen3. */
  templateArgs?: Record<string, unknown>;
}

export function createEngineConductor(options: EngineConductorOptions): Conductor {
  const { model, tokenizer } = options;
  const constraintOf = (recursion: boolean) => {
    const format: WorkflowFormat = {
      workers: options.workers,
      maxSteps: options.maxSteps,
      access: options.access,
      allowReasoning: options.allowReasoning ?? true,
      recursion,
      ...(options.maxSubtaskChars === undefined ? {} : { maxSubtaskChars: options.maxSubtaskChars }),
      ...(options.fixedSubtasks ? { fixedSubtasks: options.fixedSubtasks } : {}),
    };
    return workflowConstraintFor(tokenizer, model.config.vocabSize, format);
  };

  return {
    info: options.info,
    async generate(req: ConductorRequest): Promise<ConductorOutput> {
      const recursion = isRecursionRound(req.messages);
      const messages = !recursion && options.firstRoundMessages ? options.firstRoundMessages : req.messages;
      // The request's messages end with the Ask prompt's prefill; the compact prompt has none.
      const continueFinal = messages === req.messages || messages.at(-1)?.role === 'assistant';
      const prompt = tokenizer.encodeChat(messages, { continueFinal, ...(options.templateArgs ? { templateArgs: options.templateArgs } : {}) });
      const constrained = options.constrain ? constraintOf(recursion) : undefined;
      const constraint = constrained?.constraint;
      let state = constraint?.start();
      // Every end-of-sequence id the constraint allows must end generation: nothing may follow it.
      const stopTokens = new Set([...model.config.eosTokenIds, ...(constrained?.eosIds ?? [])]);
      if (tokenizer.eosTokenId !== undefined) stopTokens.add(tokenizer.eosTokenId);
      const stream = createDecodeStream(tokenizer, { skipSpecialTokens: true });
      const generation = await model.generate(prompt, {
        maxNewTokens: options.maxNewTokens,
        stopTokens: [...stopTokens],
        sampling: options.sampling,
        ...(req.signal ? { signal: req.signal } : {}),
        ...(constraint ? { allowedTokens: (tokens) => constraint.mask(state!, options.maxNewTokens - tokens.length) } : {}),
        onToken(token) {
          if (constraint) state = constraint.advance(state!, token);
          const delta = stream.push(token);
          if (delta) req.onDelta?.(delta);
        },
      });
      const tail = stream.flush();
      if (tail) req.onDelta?.(tail);
      const { tokens } = generation;
      const body = generation.finishReason === 'stop' ? tokens.slice(0, -1) : tokens;
      return { text: tokenizer.decode(body, { skipSpecialTokens: true }), tokenIds: tokens, logprobs: generation.logprobs, ...(messages !== req.messages ? { prompt: messages } : {}) };
    },
  };
}

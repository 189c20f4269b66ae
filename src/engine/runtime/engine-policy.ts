/**
 * Baton's engine behind core/rl's Policy: chat prompts rendered with the model's own template,
 * groups sampled as a batch by GpuModel.generateGroup, stop strings watched on the decoded tail of
 * each completion, optional per-step token masks (format-constrained sampling), and logprobs with
 * or without the LoRA adapter.
 */
import type { GroupOptions, LogprobOptions, Policy, PolicyPrompt, SampledCompletion } from '../../core/rl/index.ts';
import { createDecodeStream, type Tokenizer } from '../tokenizer/index.ts';
import type { GpuModel } from './gpu-model.ts';

interface EnginePolicyOptions {
  /** Extra chat-template variables, e.g. { enable_thinking: false } for Qwen3. */
  templateArgs?: Record<string, unknown>;
}

/**
 * Token masks step by step, e.g. a constrain/ TokenConstraint (matched by shape, so the runtime does
 * not depend on constrain/): each completion starts at start(), moves by advance() after each
 * token, may take only the ids mask() sets, and ends once isFinished().
 */
export interface TokenMasks<S> {
  start(): S;
  /** `remaining`: tokens still allowed, this one included (a constraint may steer the text to end in time). */
  mask(state: S, remaining: number): Uint32Array;
  /** Tokens the state leaves no choice in, fed without a pass each (see GpuModel's `forced`). */
  forced?(state: S, remaining: number): readonly number[];
  advance(state: S, tokenId: number): S;
  isFinished(state: S): boolean;
}

/** GroupOptions with any TokenMasks as the constraint (core's TokenConstraint is one). */
interface EngineGroupOptions<S = unknown> extends Omit<GroupOptions, 'constraint'> {
  constraint?: TokenMasks<S>;
}

/** Tokens decoded beyond a stop string's length when looking for it: a token can decode to no whole character. */
const STOP_WINDOW_SLACK = 8;

export class EnginePolicy implements Policy {
  readonly model: GpuModel;
  readonly tokenizer: Tokenizer;
  /** End-of-sequence ids of the model config and of the tokenizer. */
  readonly stopTokens: readonly number[];
  readonly #templateArgs: Record<string, unknown> | undefined;

  constructor(model: GpuModel, tokenizer: Tokenizer, options: EnginePolicyOptions = {}) {
    this.model = model;
    this.tokenizer = tokenizer;
    this.stopTokens = [...new Set([...model.config.eosTokenIds, ...(tokenizer.eosTokenId === undefined ? [] : [tokenizer.eosTokenId])])];
    this.#templateArgs = options.templateArgs;
  }

  /** The prompt's token ids: ids as given, or chat messages rendered with the model's template. */
  promptIds(prompt: PolicyPrompt, continueFinal = false): number[] {
    if (isIds(prompt)) return [...prompt];
    return this.tokenizer.encodeChat(prompt, { continueFinal, ...(this.#templateArgs ? { templateArgs: this.#templateArgs } : {}) });
  }

  async generateGroup<S>(prompt: PolicyPrompt, options: EngineGroupOptions<S>): Promise<SampledCompletion[]> {
    const promptIds = this.promptIds(prompt, options.continueFinal);
    const stopStrings = options.stopStrings?.filter((s) => s.length > 0) ?? [];
    const window = Math.max(0, ...stopStrings.map((s) => s.length)) + STOP_WINDOW_SLACK;
    const constraint = options.constraint;
    // The state after each prefix of each completion, so masks can be asked for tokens not yet committed (forced ones).
    const paths = constraint ? Array.from({ length: options.n }, () => ({ tokens: [] as number[], states: [constraint.start()] })) : [];
    const stateAfter = (index: number, tokens: readonly number[]): S => {
      const path = paths[index];
      let known = 0;
      while (known < path.tokens.length && known < tokens.length && path.tokens[known] === tokens[known]) known++;
      path.tokens.length = known;
      path.states.length = known + 1;
      for (let k = known; k < tokens.length; k++) {
        path.tokens.push(tokens[k]);
        path.states.push(constraint!.advance(path.states[k], tokens[k]));
      }
      return path.states[tokens.length];
    };
    const onText = options.onText;
    const streams = onText ? Array.from({ length: options.n }, () => createDecodeStream(this.tokenizer, { skipSpecialTokens: true })) : [];
    const onToken =
      onText || options.onToken
        ? (index: number, token: number, logprob: number) => {
            options.onToken?.(index, token, logprob);
            const delta = streams[index]?.push(token);
            if (delta) onText!(index, delta);
          }
        : undefined;
    const generations = await this.model.generateGroup(promptIds, {
      n: options.n,
      maxNewTokens: options.maxNewTokens,
      stopTokens: [...new Set([...this.stopTokens, ...(options.stopTokens ?? [])])],
      sampling: options.sampling,
      ...(options.signal ? { signal: options.signal } : {}),
      ...(onToken ? { onToken } : {}),
      ...(constraint
        ? {
            allowedTokens: (index: number, tokens: readonly number[]) => constraint.mask(stateAfter(index, tokens), options.maxNewTokens - tokens.length),
            ...(constraint.forced
              ? { forced: (index: number, tokens: readonly number[]) => constraint.forced!(stateAfter(index, tokens), options.maxNewTokens - tokens.length) }
              : {}),
          }
        : {}),
      stopWhen: (index: number, tokens: readonly number[]) => {
        if (constraint && constraint.isFinished(stateAfter(index, tokens))) return true;
        if (stopStrings.length === 0) return false;
        const tail = this.tokenizer.decode(tokens.slice(-window));
        return stopStrings.some((s) => tail.includes(s));
      },
    });
    streams.forEach((stream, index) => {
      const tail = stream.flush();
      if (tail) onText!(index, tail);
    });
    return generations.map((g, index) => ({
      index,
      promptIds: [...promptIds],
      tokens: g.tokens,
      logprobs: g.logprobs,
      text: this.tokenizer.decode(g.tokens, { skipSpecialTokens: true }),
      finishReason: g.finishReason,
    }));
  }

  logprobs(ids: readonly number[], options: LogprobOptions = {}): Promise<Float32Array> {
    return this.model.logprobs(ids, {
      ...(options.temperature === undefined ? {} : { temperature: options.temperature }),
      baseOnly: options.reference ?? false,
    });
  }
}

function isIds(prompt: PolicyPrompt): prompt is readonly number[] {
  return prompt.length === 0 || typeof prompt[0] === 'number';
}

/**
 * What GRPO needs from the model it trains: groups of sampled completions of one prompt, each with
 * the log-probability of every sampled token, and exact log-probabilities of given sequences (the
 * policy's own, or the reference model's for the KL term). Environment-neutral: Baton's WebGPU
 * engine implements it (src/engine/runtime/engine-policy.ts); a remote or CPU policy could too.
 * Training extends it: TrainablePolicy (trainable-policy.ts).
 */
import type { ChatMessage } from '../providers/index.ts';
import type { TokenConstraint } from '../workflow/constrain/index.ts';

/** A prompt as chat messages (rendered with the policy's chat template) or as token ids taken as they are. */
export type PolicyPrompt = readonly ChatMessage[] | readonly number[];

interface PolicySampling {
  /** 0 is greedy; GRPO samples at its training temperature (e.g. 1). */
  temperature: number;
  /** 0 or absent keeps all tokens. */
  topK?: number;
  /** 1 or absent keeps all tokens. */
  topP?: number;
  /** Completion i of a group draws from its own random stream of (seed, i): same seed, same group. */
  seed: number;
}

export interface GroupOptions {
  /** Completions of the prompt (GRPO's group size G). */
  n: number;
  maxNewTokens: number;
  sampling: PolicySampling;
  /** A completion ends after the token that completes one of these (the token is kept). */
  stopStrings?: readonly string[];
  /** With chat messages, continue a final assistant message instead of answering after it. */
  continueFinal?: boolean;
  /**
   * Format-constrained sampling: each completion takes only the tokens the constraint allows (e.g.
   * workflowConstraintFor's, so every plan parses). The logprobs stay those of the unmasked
   * distribution, the quantity GRPO recomputes.
   */
  constraint?: TokenConstraint<unknown>;
  /** Ids that end a completion besides the policy's own end-of-sequence ones (e.g. the constraint's). */
  stopTokens?: readonly number[];
  signal?: AbortSignal;
  onToken?(index: number, token: number, logprob: number): void;
  /** Completion `index`'s text as it decodes, piece by piece (special tokens skipped), for whoever watches it being written. */
  onText?(index: number, delta: string): void;
}

/** One sequence of a sampled group, with what scoring and training read (an episode keeps the text as its Completion). */
export interface SampledCompletion {
  /** Position in the group, 0 .. n - 1. */
  index: number;
  /** The prompt as the policy tokenised it; promptIds ++ tokens is the sequence to score. */
  promptIds: number[];
  tokens: number[];
  /** log p(tokens[i] | prompt, tokens[0..i-1]) under the sampling temperature (1 when greedy). */
  logprobs: number[];
  /** The tokens decoded, special tokens skipped. */
  text: string;
  /** 'stop': an end-of-sequence token or stop string; 'length': maxNewTokens reached. */
  finishReason: 'stop' | 'length';
}

export interface LogprobOptions {
  /** Logits are divided by it first, as GRPO's loss does (default 1). */
  temperature?: number;
  /** Score with the frozen base model only (the KL reference), without the policy's adapter. */
  reference?: boolean;
}

export interface Policy {
  /** The prompt's token ids as generateGroup sees them (chat messages rendered with the policy's template). */
  promptIds(prompt: PolicyPrompt, continueFinal?: boolean): number[];
  generateGroup(prompt: PolicyPrompt, options: GroupOptions): Promise<SampledCompletion[]>;
  /** logprobs[i] = log p(ids[i + 1] | ids[0..i]); length ids.length - 1. */
  logprobs(ids: readonly number[], options?: LogprobOptions): Promise<Float32Array>;
}

import type { ConductorInfo } from '../episodes/index.ts';
import type { ChatMessage, Usage } from '../providers/index.ts';

export interface ConductorRequest {
  /** System + user messages, ending with the assistant prefill the Conductor continues. */
  messages: ChatMessage[];
  signal?: AbortSignal;
  onDelta?: (text: string) => void;
}

export interface ConductorOutput {
  /** The continuation after the prefill (not including it). */
  text: string;
  tokenIds?: number[];
  logprobs?: number[];
  /** The messages it read where it replaced the request's (a trained Conductor's own prompt): what the episode keeps. */
  prompt?: ChatMessage[];
  /** Tokens and dollars of the Conductor's own call, where it has a price (a pool worker playing it). */
  usage?: Usage;
  costUsd?: number | null;
}

/** Anything that writes workflows: a fixed text, a pool worker, Baton's engine, web-llm, a remote endpoint. */
export interface Conductor {
  readonly info: ConductorInfo;
  generate(req: ConductorRequest): Promise<ConductorOutput>;
}

/** A recursion round's prompt holds the earlier round as more user turns; there three empty lists ("keep the answer") are a plan. */
export function isRecursionRound(messages: readonly ChatMessage[]): boolean {
  return messages.filter((m) => m.role === 'user').length > 1;
}

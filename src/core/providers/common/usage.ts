import type { LanguageModelUsage } from 'ai';
import type { Usage } from '../types.ts';

/** Baton's usage from the AI SDK's: `input` includes cache reads, `output` includes reasoning tokens. */
export function toUsage(usage: LanguageModelUsage | undefined): Usage {
  const cached = usage?.inputTokenDetails?.cacheReadTokens;
  const reasoning = usage?.outputTokenDetails?.reasoningTokens;
  return {
    input: usage?.inputTokens ?? 0,
    output: usage?.outputTokens ?? 0,
    ...(cached !== undefined ? { cached } : {}),
    ...(reasoning !== undefined ? { reasoning } : {}),
  };
}

/**
 * List prices in US dollars per million tokens, as published by each provider on PRICE_TABLE_DATE.
 * `cachedInput` is the price of a cache read (OpenAI cached input, Anthropic cache hit, Gemini cached
 * content). Users override any row in the app; prices change, so the date travels with the data.
 * Not modelled: Anthropic cache writes (1.25x input), long-context tiers (Gemini 2.5 Pro and Claude
 * Sonnet above 200k input tokens cost more), batch and flex discounts.
 */
import type { Price } from './types.ts';

export const PRICE_TABLE_DATE = '2025-11-01';

export interface PriceEntry extends Price {
  /** Model id as the provider's API spells it; dated snapshots and aliases match by prefix (see lookup). */
  model: string;
  /** Set when a figure is less certain than a published list price (OpenRouter routes vary). */
  uncertain?: string;
}

const OPENROUTER_VARIES = 'OpenRouter price of its default route; other routes cost differently';

export const PRICE_TABLE: readonly PriceEntry[] = [
  // OpenAI
  { model: 'gpt-5', input: 1.25, output: 10, cachedInput: 0.125 },
  { model: 'gpt-5-chat', input: 1.25, output: 10, cachedInput: 0.125 },
  { model: 'gpt-5.1', input: 1.25, output: 10, cachedInput: 0.125 },
  { model: 'gpt-5-mini', input: 0.25, output: 2, cachedInput: 0.025 },
  { model: 'gpt-5-nano', input: 0.05, output: 0.4, cachedInput: 0.005 },
  { model: 'gpt-4.1', input: 2, output: 8, cachedInput: 0.5 },
  { model: 'gpt-4.1-mini', input: 0.4, output: 1.6, cachedInput: 0.1 },
  { model: 'gpt-4.1-nano', input: 0.1, output: 0.4, cachedInput: 0.025 },
  { model: 'gpt-4o', input: 2.5, output: 10, cachedInput: 1.25 },
  // The first gpt-4o snapshot kept its launch price.
  { model: 'gpt-4o-2024-05-13', input: 5, output: 15 },
  { model: 'gpt-4o-mini', input: 0.15, output: 0.6, cachedInput: 0.075 },
  { model: 'o3', input: 2, output: 8, cachedInput: 0.5 },
  { model: 'o3-mini', input: 1.1, output: 4.4, cachedInput: 0.55 },
  { model: 'o4-mini', input: 1.1, output: 4.4, cachedInput: 0.275 },
  // Older OpenAI models still on the price list.
  { model: 'o1', input: 15, output: 60, cachedInput: 7.5 },
  { model: 'o1-mini', input: 1.1, output: 4.4, cachedInput: 0.55 },
  { model: 'gpt-4-turbo', input: 10, output: 30 },
  { model: 'gpt-3.5-turbo', input: 0.5, output: 1.5 },
  // Anthropic
  { model: 'claude-opus-4-5', input: 5, output: 25, cachedInput: 0.5 },
  { model: 'claude-opus-4-1', input: 15, output: 75, cachedInput: 1.5 },
  { model: 'claude-opus-4', input: 15, output: 75, cachedInput: 1.5 },
  { model: 'claude-sonnet-4-5', input: 3, output: 15, cachedInput: 0.3 },
  { model: 'claude-sonnet-4', input: 3, output: 15, cachedInput: 0.3 },
  { model: 'claude-3-7-sonnet', input: 3, output: 15, cachedInput: 0.3 },
  { model: 'claude-haiku-4-5', input: 1, output: 5, cachedInput: 0.1 },
  { model: 'claude-3-5-haiku', input: 0.8, output: 4, cachedInput: 0.08 },
  { model: 'claude-3-haiku', input: 0.25, output: 1.25, cachedInput: 0.03 },
  // Google (prompts up to 200k tokens)
  { model: 'gemini-2.5-pro', input: 1.25, output: 10, cachedInput: 0.125, uncertain: 'cached rate (Google has listed 0.31 and 0.125)' },
  { model: 'gemini-2.5-flash', input: 0.3, output: 2.5, cachedInput: 0.03, uncertain: 'cached rate (Google has listed 0.075 and 0.03)' },
  { model: 'gemini-2.5-flash-lite', input: 0.1, output: 0.4, cachedInput: 0.01, uncertain: 'cached rate (Google has listed 0.025 and 0.01)' },
  { model: 'gemini-2.0-flash', input: 0.1, output: 0.4, cachedInput: 0.025 },
  { model: 'gemini-2.0-flash-lite', input: 0.075, output: 0.3 },
  // Open models through OpenRouter
  { model: 'openai/gpt-oss-120b', input: 0.1, output: 0.5, uncertain: OPENROUTER_VARIES },
  { model: 'openai/gpt-oss-20b', input: 0.05, output: 0.2, uncertain: OPENROUTER_VARIES },
  { model: 'meta-llama/llama-3.3-70b-instruct', input: 0.13, output: 0.4, uncertain: OPENROUTER_VARIES },
  { model: 'deepseek/deepseek-chat-v3.1', input: 0.27, output: 1, uncertain: OPENROUTER_VARIES },
  { model: 'qwen/qwen3-235b-a22b-2507', input: 0.13, output: 0.6, uncertain: OPENROUTER_VARIES },
];

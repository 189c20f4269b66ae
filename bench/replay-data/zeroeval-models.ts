/**
 * ZeroEval's models: the name its summaries use (files of one model are named differently across sets), and
 * the list price (dollars per million tokens) at the time of the records (July-September 2024).
 */
import type { Price } from '../../src/core/pricing/index.ts';

export interface ZeroEvalModel {
  id: string;
  label: string;
  price: Price;
  priceSource: string;
}

// ZeroEval's files name some models differently per set; its summaries use these names (facts from its eval_utils).
export const ZEROEVAL_FILE_ALIASES: Record<string, string> = {
  'gemma-2-27b-it@together': 'gemma-2-27b-it',
  'deepseek-chat': 'deepseek-v2-chat-0628',
  'deepseek-coder': 'deepseek-v2-coder-0614',
  'DeepSeek-Coder-V2-0724': 'deepseek-v2-coder-0724',
  'Llama-3.1-405B-Inst-fp8': 'Llama-3.1-405B-Inst-fp8@together',
  'Llama-3.1-405B-Instruct-Turbo': 'Llama-3.1-405B-Inst-fp8@together',
  'Meta-Llama-3.1-405B-Instruct@hyperbolic': 'Llama-3.1-405B-Inst@hyperbolic',
};

// Where each price was checked: LiteLLM's public price table (model_prices_and_context_window.json) as it stood
// near the records' time, read in the dated copies AgentOps-AI/tokencost keeps of it (tokencost/model_prices.json).
const LITELLM_SEP = "LiteLLM's price table of 2024-09-06 (tokencost's copy, commit 6578d42)";
const LITELLM_OCT = "LiteLLM's price table of 2024-10-13 (tokencost's copy, commit 74a4d56)";
const OPENAI = `OpenAI API list price, as in ${LITELLM_SEP}`;
const OPENAI_O1 = `OpenAI API list price, as in ${LITELLM_OCT} (released 2024-09-12, after the September copy)`;
const ANTHROPIC = `Anthropic API list price, as in ${LITELLM_SEP}`;
const GOOGLE_PRO = `Gemini API list price for prompts up to 128k tokens, as in ${LITELLM_SEP}`;
const GOOGLE_PRO_EXP = `an experimental snapshot priced as its released model, as ${LITELLM_SEP} prices it (Gemini API, prompts up to 128k tokens); ${LITELLM_OCT} lists exp-0827 as free`;
const GOOGLE_FLASH = `Gemini API list price for prompts up to 128k tokens, as in ${LITELLM_OCT} (cut in August 2024; the September copy still had the earlier $0.35/$1.05)`;
const GOOGLE_FLASH_EXP = `an experimental snapshot (free while it lasted, as ${LITELLM_OCT} lists it) priced as its released model: ${GOOGLE_FLASH}`;
const DEEPSEEK = `DeepSeek API list price (cache miss) of deepseek-chat and deepseek-coder, as in ${LITELLM_SEP}`;
const MISTRAL = `Mistral La Plateforme list price, as in ${LITELLM_SEP}`;
const COHERE = `Cohere list price of the undated alias, as in ${LITELLM_SEP} (then the 04-2024 model; ${LITELLM_OCT} prices the alias as the cheaper 08-2024 model, so which model the records used is uncertain)`;
const REKA =
  "Reka API price at launch (April 2024), recalled: could not be checked against a record of the records' time (July-August 2024); the earliest public record found, OpenLIT's price table of 2024-11-22 (commit 3b26ee26), lists lower prices (Core $2/$2, Flash $0.2/$0.8)";
const YI = `01.AI's own price could not be checked (recalled); ${LITELLM_SEP} lists yi-large at Fireworks AI at the same $3/$3`;
// An open-weights model at one common hosted price: Together AI's serverless per-size tiers of mid-2024
// (same price in and out), whatever host the records came from.
const TOGETHER = (tier: string) => `open weights: Together AI serverless tier "${tier}" (in = out), as in ${LITELLM_SEP}`;
const tier = (usd: number, name: string) => ({ price: { input: usd, output: usd }, priceSource: TOGETHER(name) });
const UP_TO_4B = tier(0.1, 'up to 4B');
const UP_TO_8B = tier(0.2, '4.1B-8B');
const UP_TO_21B = tier(0.3, '8.1B-21B');
const UP_TO_41B = tier(0.8, '21.1B-41B');
const UP_TO_80B = tier(0.9, '41.1B-80B');

const priced = (input: number, output: number, priceSource: string) => ({ price: { input, output }, priceSource });
const LLAMA_405B = priced(
  5,
  5,
  "open weights: Together AI's Llama 3.1 405B Turbo price of mid-2024 (in = out), recalled: could not be checked (LiteLLM's 2024 tables have no Together entry for it; they list other hosts of it at $5-5.33 in, $15-16 out)",
);
const MIXTRAL = priced(0.6, 0.6, `open weights: Together AI's price of Mixtral-8x7B-Instruct (in = out), as in ${LITELLM_SEP}`);

export const ZEROEVAL_MODELS: readonly ZeroEvalModel[] = [
  { id: 'o1-mini-2024-09-12', label: 'o1-mini', ...priced(3, 12, OPENAI_O1) },
  { id: 'o1-preview-2024-09-12', label: 'o1-preview', ...priced(15, 60, OPENAI_O1) },
  { id: 'gpt-4o-2024-08-06', label: 'GPT-4o (08-06)', ...priced(2.5, 10, OPENAI) },
  { id: 'gpt-4o-2024-05-13', label: 'GPT-4o (05-13)', ...priced(5, 15, OPENAI) },
  { id: 'chatgpt-4o-latest-24-09-07', label: 'ChatGPT-4o-latest', ...priced(5, 15, OPENAI) },
  { id: 'gpt-4o-mini-2024-07-18', label: 'GPT-4o mini', ...priced(0.15, 0.6, OPENAI) },
  { id: 'gpt-4-turbo-2024-04-09', label: 'GPT-4 Turbo', ...priced(10, 30, OPENAI) },
  { id: 'gpt-4-0314', label: 'GPT-4 (0314)', ...priced(30, 60, OPENAI) },
  { id: 'gpt-3.5-turbo-0125', label: 'GPT-3.5 Turbo', ...priced(0.5, 1.5, OPENAI) },
  { id: 'claude-3-5-sonnet-20240620', label: 'Claude 3.5 Sonnet', ...priced(3, 15, ANTHROPIC) },
  { id: 'claude-3-opus-20240229', label: 'Claude 3 Opus', ...priced(15, 75, ANTHROPIC) },
  { id: 'claude-3-sonnet-20240229', label: 'Claude 3 Sonnet', ...priced(3, 15, ANTHROPIC) },
  { id: 'claude-3-haiku-20240307', label: 'Claude 3 Haiku', ...priced(0.25, 1.25, ANTHROPIC) },
  { id: 'gemini-1.5-pro', label: 'Gemini 1.5 Pro', ...priced(3.5, 10.5, GOOGLE_PRO) },
  { id: 'gemini-1.5-pro-exp-0801', label: 'Gemini 1.5 Pro exp-0801', ...priced(3.5, 10.5, GOOGLE_PRO_EXP) },
  { id: 'gemini-1.5-pro-exp-0827', label: 'Gemini 1.5 Pro exp-0827', ...priced(3.5, 10.5, GOOGLE_PRO_EXP) },
  { id: 'gemini-1.5-flash', label: 'Gemini 1.5 Flash', ...priced(0.075, 0.3, GOOGLE_FLASH) },
  { id: 'gemini-1.5-flash-exp-0827', label: 'Gemini 1.5 Flash exp-0827', ...priced(0.075, 0.3, GOOGLE_FLASH_EXP) },
  { id: 'deepseek-v2.5-0908', label: 'DeepSeek-V2.5', ...priced(0.14, 0.28, DEEPSEEK) },
  { id: 'deepseek-v2-chat-0628', label: 'DeepSeek-V2 Chat', ...priced(0.14, 0.28, DEEPSEEK) },
  { id: 'deepseek-v2-coder-0614', label: 'DeepSeek-Coder-V2 (0614)', ...priced(0.14, 0.28, DEEPSEEK) },
  { id: 'deepseek-v2-coder-0724', label: 'DeepSeek-Coder-V2 (0724)', ...priced(0.14, 0.28, DEEPSEEK) },
  { id: 'Mistral-Large-2', label: 'Mistral Large 2', ...priced(3, 9, MISTRAL) },
  { id: 'Mistral-Nemo-Instruct-2407', label: 'Mistral NeMo', ...priced(0.3, 0.3, MISTRAL) },
  { id: 'command-r-plus', label: 'Command R+', ...priced(3, 15, COHERE) },
  { id: 'command-r', label: 'Command R', ...priced(0.5, 1.5, COHERE) },
  { id: 'reka-core-20240501', label: 'Reka Core', ...priced(10, 25, REKA) },
  { id: 'reka-flash-20240226', label: 'Reka Flash', ...priced(0.8, 2, REKA) },
  { id: 'yi-large', label: 'Yi-Large', ...priced(3, 3, YI) },
  { id: 'yi-large-preview', label: 'Yi-Large preview', ...priced(3, 3, YI) },
  { id: 'Llama-3.1-405B-Inst-fp8@together', label: 'Llama 3.1 405B (fp8, Together)', ...LLAMA_405B },
  { id: 'Llama-3.1-405B-Inst@hyperbolic', label: 'Llama 3.1 405B (Hyperbolic)', ...LLAMA_405B },
  { id: 'Llama-3.1-405B-Inst@sambanova', label: 'Llama 3.1 405B (SambaNova)', ...LLAMA_405B },
  { id: 'Meta-Llama-3.1-70B-Instruct', label: 'Llama 3.1 70B', ...UP_TO_80B },
  { id: 'Meta-Llama-3.1-70B-Instruct@hyperbolic', label: 'Llama 3.1 70B (Hyperbolic)', ...UP_TO_80B },
  { id: 'Meta-Llama-3.1-8B-Instruct', label: 'Llama 3.1 8B', ...UP_TO_8B },
  { id: 'Meta-Llama-3-70B-Instruct', label: 'Llama 3 70B', ...UP_TO_80B },
  { id: 'Meta-Llama-3-8B-Instruct', label: 'Llama 3 8B', ...UP_TO_8B },
  { id: 'Athene-70B', label: 'Athene 70B', ...UP_TO_80B },
  { id: 'Qwen2-72B-Instruct', label: 'Qwen2 72B', ...UP_TO_80B },
  { id: 'Qwen2-7B-Instruct', label: 'Qwen2 7B', ...UP_TO_8B },
  { id: 'Qwen2.5-72B-Instruct', label: 'Qwen2.5 72B', ...UP_TO_80B },
  { id: 'Qwen2.5-32B-Instruct', label: 'Qwen2.5 32B', ...UP_TO_41B },
  { id: 'Qwen2.5-7B-Instruct', label: 'Qwen2.5 7B', ...UP_TO_8B },
  { id: 'Qwen2.5-3B-Instruct', label: 'Qwen2.5 3B', ...UP_TO_4B },
  { id: 'Yi-1.5-34B-Chat', label: 'Yi-1.5 34B', ...UP_TO_41B },
  { id: 'Yi-1.5-9B-Chat', label: 'Yi-1.5 9B', ...UP_TO_21B },
  { id: 'gemma-2-27b-it', label: 'Gemma 2 27B', ...UP_TO_41B },
  { id: 'gemma-2-9b-it', label: 'Gemma 2 9B', ...UP_TO_21B },
  { id: 'gemma-2-2b-it', label: 'Gemma 2 2B', ...UP_TO_4B },
  { id: 'Phi-3-mini-4k-instruct', label: 'Phi-3 mini', ...UP_TO_4B },
  { id: 'Phi-3.5-mini-instruct', label: 'Phi-3.5 mini', ...UP_TO_4B },
  { id: 'Mixtral-8x7B-Instruct-v0.1', label: 'Mixtral 8x7B', ...MIXTRAL },
];

/**
 * o1's reasoning tokens are billed as output but are not in the records (only the visible answer is). Assumed:
 * this many hidden tokens per visible output token. An assumption, not a measurement: OpenAI only says they can
 * be several times the visible answer.
 */
export const HIDDEN_REASONING_PER_VISIBLE_TOKEN: Readonly<Record<string, number>> = { 'o1-mini-2024-09-12': 4, 'o1-preview-2024-09-12': 4 };

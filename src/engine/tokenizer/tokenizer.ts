/**
 * The model's own tokenizer and chat template, through transformers.js (tokenizer.json +
 * tokenizer_config.json, read from any ModelFiles, so it works offline and from picked files).
 * transformers.js is imported lazily: pages that never load a local model do not pay for it.
 */
import { BatonError } from '../../core/errors/index.ts';
import type { ChatMessage } from '../../core/providers/index.ts';
import { readJson, type ModelFiles } from '../model/index.ts';
import { byteLevelBytes } from './byte-level.ts';

interface RenderChatOptions {
  /**
   * true: the final message is an assistant prefill that the model continues, so it is left open
   * (no end-of-turn token after it). false: a generation prompt is added after a final user or
   * system message, and a final assistant message is closed.
   */
  continueFinal: boolean;
  /** Extra template variables, e.g. { enable_thinking: false } for Qwen3. */
  templateArgs?: Record<string, unknown>;
}

export interface Tokenizer {
  /** Largest token id + 1. */
  readonly vocabSize: number;
  /** The end-of-sequence token (tokenizer_config's eos_token), when it has one. */
  readonly eosTokenId?: number;
  /** Text to ids; special tokens written in the text (as a rendered chat has them) become their ids. */
  encode(text: string): number[];
  decode(ids: readonly number[], opts?: { skipSpecialTokens?: boolean }): string;
  renderChat(messages: readonly ChatMessage[], opts: RenderChatOptions): string;
  /** renderChat, then encode. */
  encodeChat(messages: readonly ChatMessage[], opts: RenderChatOptions): number[];
  /** The id of a token string ('<|im_end|>'), or undefined. */
  tokenId(token: string): number | undefined;
  /**
   * The bytes token `id` stands for, which decoding it alone loses for a piece of a UTF-8 character
   * (it reads U+FFFD); undefined for a tokenizer that is not byte-level, or an unknown id.
   */
  tokenBytes(id: number): Uint8Array | undefined;
}

/** Stands in for the prefill while the template renders, so the cut point is found exactly. */
const PREFILL_MARK = '\u{E000}baton-prefill\u{E000}';

/** The operations of a transformers.js PreTrainedTokenizer that this module uses. */
interface HfTokenizer {
  encode(text: string, opts: { add_special_tokens: boolean }): number[];
  decode(ids: number[], opts: { skip_special_tokens: boolean }): string;
  apply_chat_template(messages: ChatMessage[], opts: Record<string, unknown>): unknown;
  get_vocab(): Map<string, number>;
  eos_token_id?: number;
}

function renderWith(tok: HfTokenizer, messages: readonly ChatMessage[], opts: RenderChatOptions): string {
  const args = { tokenize: false, ...opts.templateArgs };
  const last = messages[messages.length - 1];
  if (!opts.continueFinal) {
    return tok.apply_chat_template([...messages], { ...args, add_generation_prompt: last?.role !== 'assistant' }) as string;
  }
  if (last?.role !== 'assistant') {
    throw new BatonError({
      code: 'data/invalid',
      message: 'continueFinal needs a final assistant message (the prefill); add one or pass continueFinal: false.',
    });
  }
  const marked = [...messages.slice(0, -1), { role: 'assistant' as const, content: PREFILL_MARK }];
  const text = tok.apply_chat_template(marked, { ...args, add_generation_prompt: false }) as string;
  const at = text.lastIndexOf(PREFILL_MARK);
  if (at < 0) {
    throw new BatonError({
      code: 'engine/unsupported',
      message: "This model's chat template drops the final assistant message, so a prefill cannot be continued.",
    });
  }
  return text.slice(0, at) + last.content;
}

export async function loadTokenizer(files: ModelFiles): Promise<Tokenizer> {
  const [json, config] = await Promise.all([readJson(files, 'tokenizer.json'), readJson(files, 'tokenizer_config.json')]);
  const { PreTrainedTokenizer } = await import('@huggingface/transformers');
  let tok: HfTokenizer;
  try {
    tok = new PreTrainedTokenizer(json, config) as unknown as HfTokenizer;
  } catch (e) {
    throw new BatonError({
      code: 'engine/model-file',
      message: `tokenizer.json in ${files.name} could not be loaded (${(e as Error).message}); check the model directory.`,
      data: { file: 'tokenizer.json', source: files.name },
      cause: e,
    });
  }
  const vocab = tok.get_vocab();
  let vocabSize = 0;
  for (const id of vocab.values()) vocabSize = Math.max(vocabSize, id + 1);
  const byteLevel = (json as { decoder?: { type?: string } }).decoder?.type === 'ByteLevel';
  let tokenStrings: string[] | undefined; // by id, built on first use
  const tokenizer: Tokenizer = {
    vocabSize,
    ...(typeof tok.eos_token_id === 'number' ? { eosTokenId: tok.eos_token_id } : {}),
    encode: (text) => tok.encode(text, { add_special_tokens: false }),
    decode: (ids, opts) => tok.decode([...ids], { skip_special_tokens: opts?.skipSpecialTokens ?? false }),
    renderChat: (messages, opts) => renderWith(tok, messages, opts),
    encodeChat: (messages, opts) => tokenizer.encode(renderWith(tok, messages, opts)),
    tokenId: (token) => vocab.get(token),
    tokenBytes(id) {
      if (!byteLevel) return undefined;
      if (!tokenStrings) {
        tokenStrings = [];
        for (const [token, tokenId] of vocab) tokenStrings[tokenId] = token;
      }
      const token = tokenStrings[id];
      return token === undefined ? undefined : byteLevelBytes(token);
    },
  };
  return tokenizer;
}

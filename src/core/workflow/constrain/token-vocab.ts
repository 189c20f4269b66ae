/**
 * A tokenizer's vocabulary as a constraint needs it: each id decoded alone. Byte-level pieces of a
 * UTF-8 character, which decode to U+FFFD, keep their bytes instead (textOfBytes), so the constraint
 * can keep every character whole. Control tokens (those decoding skips as special, like <|im_start|>)
 * become '' and are never allowed, except the end-of-sequence ones, which the constraint handles apart.
 */
import { BatonError } from '../../errors/index.ts';
import { textOfBytes } from './whole-characters.ts';

/** What a vocabulary is read from: the engine's Tokenizer (transformers.js) is one. */
export interface VocabTokenizer {
  readonly vocabSize: number;
  readonly eosTokenId?: number;
  decode(ids: readonly number[], options: { skipSpecialTokens: boolean }): string;
  tokenId(token: string): number | undefined;
  /**
   * The bytes token `id` stands for (byte-level tokenizers). Without them a token that decodes to
   * U+FFFD cannot be told from a piece of a character, so it is never allowed.
   */
  tokenBytes?(id: number): Uint8Array | undefined;
}

/** Tokens that end a chat turn in Qwen-style templates, besides the tokenizer's own eos_token. */
const TURN_ENDS = ['<|im_end|>', '<|endoftext|>'];

/**
 * `size`: how many ids the masks cover, at least the tokenizer's; pass the model's vocab_size when its
 * LM head has more rows (Qwen3: 151,936 rows, 151,669 tokens), so the padding rows are masked too.
 */
export function tokenVocabOf(tokenizer: VocabTokenizer, size = tokenizer.vocabSize): { vocab: string[]; eosIds: number[] } {
  if (size < tokenizer.vocabSize) {
    throw new BatonError({
      code: 'data/invalid',
      message: `The mask size ${size} is below the tokenizer's ${tokenizer.vocabSize} tokens; pass the model's vocab_size or nothing.`,
    });
  }
  const vocab: string[] = new Array<string>(size).fill('');
  for (let id = 0; id < tokenizer.vocabSize; id++) {
    const text = tokenizer.decode([id], { skipSpecialTokens: true });
    if (!text.includes('\uFFFD')) vocab[id] = text;
    else {
      const bytes = tokenizer.tokenBytes?.(id);
      if (bytes) vocab[id] = textOfBytes(bytes);
    }
  }
  const eos = new Set<number>();
  if (tokenizer.eosTokenId !== undefined) eos.add(tokenizer.eosTokenId);
  for (const name of TURN_ENDS) {
    const id = tokenizer.tokenId(name);
    if (id !== undefined) eos.add(id);
  }
  return { vocab, eosIds: [...eos] };
}

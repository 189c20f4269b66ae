import { describe, expect, it } from 'vitest';
import { BatonError } from '../../../../../src/core/errors/index.ts';
import { tokenVocabOf } from '../../../../../src/core/workflow/constrain/index.ts';
import { qwenVocab, smallVocab } from './tokenizers.ts';

describe('tokenVocabOf (Qwen3)', async () => {
  const { tokenizer, vocab, eosIds } = await qwenVocab();

  it('decodes every id alone, keeping leading spaces and the thinking tags', () => {
    expect(vocab).toHaveLength(tokenizer.vocabSize);
    expect(vocab[tokenizer.encode(' world')[0]]).toBe(' world');
    expect(vocab[tokenizer.tokenId('<think>')!]).toBe('<think>');
    expect(vocab[tokenizer.tokenId('</think>')!]).toBe('</think>');
  });

  it('blanks control tokens and lists the turn ends as end-of-sequence', () => {
    expect(vocab[tokenizer.tokenId('<|im_start|>')!]).toBe('');
    expect(eosIds.sort()).toEqual([tokenizer.tokenId('<|endoftext|>'), tokenizer.tokenId('<|im_end|>')].sort());
  });

  it('keeps the bytes of a piece of a UTF-8 character, each as its escape unit, where decoding reads U+FFFD', () => {
    const ids = tokenizer.encode('龘'); // one character (E9 BE 98), two byte-level tokens
    expect(ids).toHaveLength(2);
    expect(ids.map((id) => tokenizer.decode([id]))).toEqual(['\ufffd', '\ufffd']);
    expect(ids.map((id) => vocab[id])).toEqual(['\udce9\udcbe', '\udc98']);
    expect(tokenizer.decode(ids)).toBe('龘');
  });

  it('blanks the pieces when the tokenizer cannot give their bytes', () => {
    const { tokenBytes: _, ...withoutBytes } = tokenizer;
    const blind = tokenVocabOf(withoutBytes);
    for (const id of tokenizer.encode('龘')) expect(blind.vocab[id]).toBe('');
    expect(blind.vocab[tokenizer.encode(' world')[0]]).toBe(' world');
  });
});

describe('tokenVocabOf (padded to a model head)', () => {
  it('blanks the rows past the tokenizer and refuses a size below it', async () => {
    const { tokenizer } = await smallVocab(300);
    const padded = tokenVocabOf(tokenizer, 320);
    expect(padded.vocab).toHaveLength(320);
    expect(padded.vocab.slice(300)).toEqual(Array(20).fill(''));
    expect(padded.vocab[0]).toBe('!');
    let error: unknown;
    try {
      tokenVocabOf(tokenizer, 299);
    } catch (e) {
      error = e;
    }
    expect(BatonError.is(error, 'data/invalid')).toBe(true);
  });
});

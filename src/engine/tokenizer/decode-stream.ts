/**
 * Text from tokens as they are generated. A byte-level BPE token can end in the middle of a UTF-8
 * character; its decoded text then ends in U+FFFD, so the delta is held back until the character
 * completes. Once the text so far ends on a whole character, decoding restarts from the next token,
 * which keeps each step O(pending tokens) (exact for byte-level BPE, whose decode is concatenation).
 */
import type { Tokenizer } from './tokenizer.ts';

interface DecodeStream {
  /** The new text this token completes ('' while a character is still partial). */
  push(id: number): string;
  /** Whatever is still held back (a partial character at the very end), decoded as is. */
  flush(): string;
}

export function createDecodeStream(tokenizer: Pick<Tokenizer, 'decode'>, opts: { skipSpecialTokens?: boolean } = {}): DecodeStream {
  let pending: number[] = [];
  const take = () => {
    const text = tokenizer.decode(pending, opts);
    pending = [];
    return text;
  };
  return {
    push(id) {
      pending.push(id);
      return tokenizer.decode(pending, opts).endsWith('\uFFFD') ? '' : take();
    },
    flush: () => (pending.length > 0 ? take() : ''),
  };
}

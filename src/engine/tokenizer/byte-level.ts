/**
 * Byte-level BPE (GPT-2's scheme, which Qwen uses): a token string writes each of its bytes as one
 * visible character. The printable bytes ('!'..'~', '¡'..'¬', '®'..'ÿ') stand for themselves; the
 * others (controls, space, ...) take the code points from U+0100 up, in byte order. Decoding a token
 * alone turns a piece of a UTF-8 character into U+FFFD; these bytes keep what the piece is.
 */

const BYTE_OF_CHAR = buildTable();

function buildTable(): Map<number, number> {
  const table = new Map<number, number>();
  let next = 0x100;
  for (let b = 0; b < 0x100; b++) {
    const printable = (b >= 0x21 && b <= 0x7e) || (b >= 0xa1 && b <= 0xac) || b >= 0xae;
    table.set(printable ? b : next++, b);
  }
  return table;
}

/** The bytes a byte-level token string stands for, or undefined if a character of it stands for no byte. */
export function byteLevelBytes(token: string): Uint8Array | undefined {
  const bytes = new Uint8Array(token.length);
  for (let i = 0; i < token.length; i++) {
    const b = BYTE_OF_CHAR.get(token.charCodeAt(i));
    if (b === undefined) return undefined;
    bytes[i] = b;
  }
  return bytes;
}

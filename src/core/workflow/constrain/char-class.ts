/**
 * Character classes the workflow automaton asks about on every step, as a table over the BMP so a
 * step costs an array read instead of a regex test.
 */

/** What the automaton reads for each byte of a character split across tokens (whole-characters.ts). */
export const REPLACEMENT = 0xfffd;

export const enum CharClass {
  Other = 0,
  /** JavaScript's \s (what the parser's regexes skip), except the line feed; tab and CR included. */
  Space = 1,
  LineFeed = 2,
  AsciiLetter = 3,
  Digit = 4,
  /** Below U+0020, and DEL: never written raw inside a subtask. */
  Control = 5,
}

const TABLE = buildTable();

function buildTable(): Uint8Array {
  const t = new Uint8Array(0x10000);
  for (let c = 0; c < 0x10000; c++) {
    const ch = String.fromCharCode(c);
    if (c === 0x0a) t[c] = CharClass.LineFeed;
    else if (/\s/.test(ch)) t[c] = CharClass.Space;
    else if (c < 0x20 || c === 0x7f) t[c] = CharClass.Control;
    else if (/[A-Za-z]/.test(ch)) t[c] = CharClass.AsciiLetter;
    else if (c >= 0x30 && c <= 0x39) t[c] = CharClass.Digit;
  }
  return t;
}

export function charClass(code: number): CharClass {
  return TABLE[code] as CharClass;
}

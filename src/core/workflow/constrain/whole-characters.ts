/**
 * Whole characters out of byte-level tokens. A byte-level BPE token may hold part of a UTF-8 character
 * (Qwen writes many as two or three tokens); decoded alone it reads U+FFFD, which says nothing about
 * what may follow it, so a constraint walking such texts could let a character's lead byte be followed
 * by anything, or a subtask close (its budget spent) before the character's last byte: the answer
 * then decodes with U+FFFD in it. So token texts keep each byte that is not part of a whole character
 * as one escape unit (textOfBytes), and wholeCharacters lifts a character automaton over them: the
 * bytes must form valid UTF-8, and a byte that opens a character is taken only where the automaton
 * has room for the rest of it. Everything else (the end of a subtask, of the answer) needs a character
 * boundary, so every accepted text decodes to whole characters.
 */
import type { CharAutomaton } from './char-automaton.ts';
import { REPLACEMENT } from './char-class.ts';

/**
 * Byte b of a piece is the code unit ESCAPE + b (0x80..0xFF: DC80..DCFF), a lone low surrogate, which
 * no decoded text holds alone (Python's surrogateescape does the same).
 */
const ESCAPE = 0xdc00;

/**
 * Where the bytes stand. BOUNDARY: between characters. 1..7: inside a character, with the bytes it
 * still needs and the range the next one must be in (after E0, ED, F0, F4 the range is narrower, so
 * that no overlong form or surrogate is spelled). PAIR: after the high half of a surrogate pair, whose
 * low half (DC00..DFFF) must not be read as an escape.
 */
const BOUNDARY = 0;
const PAIR = 8;
const OWED = [0, 1, 2, 2, 2, 3, 3, 3];
const LOW = [0, 0x80, 0x80, 0xa0, 0x80, 0x80, 0x90, 0x80];
const HIGH = [0, 0xbf, 0xbf, 0xbf, 0x9f, 0xbf, 0xbf, 0x8f];
/** The state after a continuation byte: one byte less owed, any continuation next. */
const AFTER = [0, BOUNDARY, 1, 1, 1, 2, 2, 2];

/** The most bytes a character can still owe after one of its bytes. */
const MAX_OWED = 3;

/** The state after byte `b`, or undefined where it breaks UTF-8. */
function stepByte(state: number, b: number): number | undefined {
  if (state !== BOUNDARY) return b >= LOW[state] && b <= HIGH[state] ? AFTER[state] : undefined;
  if (b < 0x80) return BOUNDARY;
  if (b >= 0xc2 && b <= 0xdf) return 1;
  if (b === 0xe0) return 3;
  if (b === 0xed) return 4;
  if (b >= 0xe1 && b <= 0xef) return 2;
  if (b === 0xf0) return 6;
  if (b >= 0xf1 && b <= 0xf3) return 5;
  if (b === 0xf4) return 7;
  return undefined;
}

/** `bytes` as text: whole characters decoded, each other byte as its escape unit. */
export function textOfBytes(bytes: Uint8Array): string {
  let text = '';
  for (let i = 0; i < bytes.length;) {
    let state: number | undefined = stepByte(BOUNDARY, bytes[i]);
    let end = i + 1;
    while (state !== undefined && state !== BOUNDARY && end < bytes.length) state = stepByte(state, bytes[end++]);
    if (state === BOUNDARY) {
      text += decodeCharacter(bytes.subarray(i, end));
      i = end;
    } else {
      text += String.fromCharCode(ESCAPE + bytes[i++]);
    }
  }
  return text;
}

/** One valid UTF-8 character's code point, as text. */
function decodeCharacter(bytes: Uint8Array): string {
  if (bytes.length === 1) return String.fromCharCode(bytes[0]);
  let point = bytes[0] & (0x7f >> bytes.length);
  for (let k = 1; k < bytes.length; k++) point = (point << 6) | (bytes[k] & 0x3f);
  return String.fromCodePoint(point);
}

/** Inside a character (or between the halves of a surrogate pair): the inner automaton's state, and where the bytes stand. */
export class InsideCharacter<S> {
  constructor(
    readonly chars: S,
    readonly utf8: number,
  ) {}
}

/** Between characters the state is the inner automaton's own, so the common step allocates nothing more. */
export type ByteState<S> = S | InsideCharacter<S>;

/** The state from its two parts: the inner automaton's state, and where the bytes stand (0 between characters). */
export function byteState<S>(chars: S, utf8: number): ByteState<S> {
  return utf8 === BOUNDARY ? chars : new InsideCharacter(chars, utf8);
}

/** The two parts of a state. */
export function partsOf<S>(s: ByteState<S>): { chars: S; utf8: number } {
  return s instanceof InsideCharacter ? { chars: s.chars as S, utf8: s.utf8 } : { chars: s, utf8: BOUNDARY };
}

/** The escaped bytes that end the character `s` is inside, the lowest each may be; undefined between the halves of a pair. */
export function characterEnding(s: InsideCharacter<unknown>): string | undefined {
  if (s.utf8 === PAIR) return undefined;
  let text = '';
  for (let state = s.utf8; state !== BOUNDARY; state = AFTER[state]) text += String.fromCharCode(ESCAPE + LOW[state]);
  return text;
}

/**
 * `inner` over texts with escaped bytes. The inner automaton reads each escaped byte as U+FFFD, so a
 * character split across tokens counts one code unit per byte against a length limit (never fewer than
 * it decodes to); a byte is taken only if the inner automaton can read as many more U+FFFD as the
 * character still owes, which makes a short limit end on the character before, not inside one.
 */
export function wholeCharacters<S>(inner: CharAutomaton<S>): CharAutomaton<ByteState<S>> {
  const hasRoom = (s: S, bytes: number) => {
    let at: S | undefined = s;
    for (let k = 0; k < bytes && at !== undefined; k++) at = inner.step(at, REPLACEMENT);
    return at !== undefined;
  };
  const localKey = inner.localKey;
  /** Byte `b`, read as U+FFFD, where the character it is part of still fits. */
  const takeByte = (chars: S, utf8: number, b: number): ByteState<S> | undefined => {
    const after = stepByte(utf8, b);
    if (after === undefined) return undefined;
    const next = inner.step(chars, REPLACEMENT);
    return next !== undefined && hasRoom(next, OWED[after]) ? byteState(next, after) : undefined;
  };
  return {
    start: () => inner.start(),
    step(s, code) {
      const escape = code >= ESCAPE + 0x80 && code <= ESCAPE + 0xff;
      if (s instanceof InsideCharacter) {
        const chars = s.chars as S;
        if (s.utf8 === PAIR) return inner.step(chars, code);
        return escape ? takeByte(chars, s.utf8, code - ESCAPE) : undefined;
      }
      if (escape) return takeByte(s, BOUNDARY, code - ESCAPE);
      const next = inner.step(s, code);
      return next !== undefined && code >= 0xd800 && code <= 0xdbff ? new InsideCharacter(next, PAIR) : next;
    },
    accepts: (s) => !(s instanceof InsideCharacter) && inner.accepts(s),
    // The room check reads up to MAX_OWED code units past the text walked.
    key(s, horizon) {
      const { chars, utf8 } = partsOf(s);
      return `${utf8}|${inner.key(chars, horizon + MAX_OWED)}`;
    },
    ...(localKey && {
      localKey(s: ByteState<S>, horizon: number) {
        const { chars, utf8 } = partsOf(s);
        const local = localKey(chars, horizon + MAX_OWED);
        return local && { key: `${utf8}|${local.key}`, barrier: local.barrier };
      },
    }),
  };
}

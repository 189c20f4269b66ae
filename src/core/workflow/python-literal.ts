/**
 * A small reader for the Python literals a Conductor writes: lists (or tuples) of strings, ints, floats,
 * True/False/None and nested lists. It follows `ast.literal_eval` for valid input and is lenient where an
 * LLM's near-Python has only one sensible reading:
 * - smart quotes delimit strings like straight ones, and become straight ones inside strings (an escape
 *   like \u2019 still gives a smart one);
 * - a quote followed by a letter or digit on the same line does not end its string, so
 *   `'check the student's answer'` or an unescaped `"x" is` inside a double-quoted string is read as
 *   text; valid Python never has a letter right after a closing quote, so this changes no valid literal;
 * - a backslash before a LaTeX command (`\frac`, `\times`, `\neq`) stays a backslash instead of becoming
 *   a form feed, tab or newline; `\u`/`\x` without their hex digits stay as written.
 * Tested by test/unit/core/workflow/python-literal.test.ts.
 */

export type PyValue = string | number | boolean | null | PyValue[];

type ReadResult = { ok: true; value: PyValue; end: number } | { ok: false; error: string; at: number };

/** Quote characters that may open a string, and the characters that may close each. */
const CLOSERS: Record<string, string> = {
  '"': '"',
  "'": "'",
  '\u201c': '\u201d\u201c"', // “ ... ” (or a straight one)
  '\u201d': '\u201d\u201c"',
  '\u2018': "\u2019\u2018'", // ‘ ... ’
  '\u2019': "\u2019\u2018'",
};

const STRAIGHT: Record<string, string> = { '\u201c': '"', '\u201d': '"', '\u2018': "'", '\u2019': "'" };

function isQuote(ch: string): boolean {
  return ch in CLOSERS;
}

/**
 * LaTeX commands that start with \t, \n or \r, which would otherwise make a tab, newline or return.
 * A backslash starting one of these words is kept as a backslash. (\b \f \v \a followed by a letter
 * are always kept: no subtask means a backspace or a bell, while \boldsymbol or \vdash are common.)
 */
const LATEX_WORDS = new Set(
  (
    'times theta tau text textbf textit textrm textsf textstyle tfrac tbinom tan tanh to top triangle ' +
    'tilde therefore tt ' +
    'neq ne nabla nu neg not nmid newline ni notin nleq ngeq nexists nsubseteq nparallel nolimits ' +
    'right rightarrow rho rangle rfloor rceil rm rbrace rbrack rvert'
  ).split(' '),
);

/** Whether the letters starting at s[i] (the escape letter itself) spell a LaTeX command. */
export function isLatexCommandAt(s: string, i: number): boolean {
  let j = i;
  while (j < s.length && /[A-Za-z]/.test(s[j])) j++;
  return LATEX_WORDS.has(s.slice(i, j));
}

const SIMPLE_ESCAPES: Record<string, string> = {
  n: '\n',
  t: '\t',
  r: '\r',
  f: '\f',
  b: '\b',
  v: '\v',
  a: '\x07',
  '0': '\0',
  '\\': '\\',
  "'": "'",
  '"': '"',
  '\n': '', // a backslash before a line break continues the line
};

function skipSpace(s: string, i: number): number {
  for (;;) {
    while (i < s.length && /\s/.test(s[i])) i++;
    if (s[i] !== '#') return i;
    while (i < s.length && s[i] !== '\n') i++; // a Python comment
  }
}

/**
 * Whether the quote at s[i] ends the string: it does unless a letter or digit follows it on the same
 * line (after spaces), which no valid literal has but `it's` and `say "hi" now` do.
 */
function closesHere(s: string, i: number, closers: string): boolean {
  if (!closers.includes(s[i])) return false;
  let j = i + 1;
  while (s[j] === ' ' || s[j] === '\t') j++;
  return j >= s.length || !/[\p{L}\p{N}]/u.test(s[j]);
}

type StringScan = { ok: true; value: string; end: number } | { ok: false; error: string; at: number };

/**
 * Reads the string whose opening quote is at s[start]; `end` is just past its closing quote. A raw
 * string keeps its backslashes (a backslash still stops the next quote from ending it, as in Python).
 */
function scanString(s: string, start: number, raw = false): StringScan {
  const open = s[start];
  const triple = (open === '"' || open === "'") && s.startsWith(open.repeat(3), start);
  const closers = CLOSERS[open];
  let i = start + (triple ? 3 : 1);
  let value = '';
  while (i < s.length) {
    const ch = s[i];
    if (triple ? s.startsWith(open.repeat(3), i) : closesHere(s, i, closers)) {
      return { ok: true, value, end: i + (triple ? 3 : 1) };
    }
    if (ch === '\\' && i + 1 < s.length) {
      const [text, width]: [string, number] = raw ? [s.slice(i, i + 2), 2] : readEscape(s, i);
      value += text;
      i += width;
      continue;
    }
    // Smart quotes become straight ones, as the reference does; a raw line break in a one-line string is
    // invalid Python, but LLMs write them: keep it.
    value += STRAIGHT[ch] ?? ch;
    i++;
  }
  return { ok: false, error: `a string opened with ${open} is never closed`, at: start };
}

/** The text an escape at s[i] (a backslash) stands for, and how many characters it spans. */
function readEscape(s: string, i: number): [string, number] {
  const e = s[i + 1];
  if (e === 'u' || e === 'x' || e === 'U') {
    const digits = e === 'x' ? 2 : e === 'u' ? 4 : 8;
    const hex = s.slice(i + 2, i + 2 + digits);
    if (hex.length === digits && /^[0-9a-fA-F]+$/.test(hex)) {
      const code = parseInt(hex, 16);
      if (code <= 0x10ffff) return [String.fromCodePoint(code), 2 + digits];
    }
    return ['\\' + e, 2];
  }
  const latex = 'bfva'.includes(e) ? /[A-Za-z]/.test(s[i + 2] ?? '') : 'ntr'.includes(e) && isLatexCommandAt(s, i + 1);
  if (e in SIMPLE_ESCAPES && !latex) {
    if (e === '0' && /[0-7]/.test(s[i + 2] ?? '')) return ['\\0', 2]; // octal: not worth supporting
    return [SIMPLE_ESCAPES[e], 2];
  }
  if (e === '\r' && s[i + 2] === '\n') return ['', 3];
  return ['\\' + e, 2]; // Python keeps unknown escapes as written
}

/**
 * The index of the `]` (or `)`) that closes the bracket at s[open], skipping strings; -1 if it never
 * closes. Uses the same string rules as the reader, so both agree on where a list ends.
 */
export function findClosingBracket(s: string, open: number): number {
  const stack: string[] = [];
  let i = open;
  while (i < s.length) {
    const ch = s[i];
    if (isQuote(ch)) {
      const str = scanString(s, i);
      if (!str.ok) return -1;
      i = str.end;
      continue;
    }
    if (ch === '#') {
      while (i < s.length && s[i] !== '\n') i++;
      continue;
    }
    if (ch === '[' || ch === '(' || ch === '{') stack.push(ch === '[' ? ']' : ch === '(' ? ')' : '}');
    else if (ch === ']' || ch === ')' || ch === '}') {
      if (stack.pop() !== ch) return -1;
      if (stack.length === 0) return i;
    }
    i++;
  }
  return -1;
}

// Deeper nesting is never a workflow, and reading it recursively could exhaust the stack.
export const MAX_DEPTH = 32;

/** Whether lists nest more than `max` deep inside `list`; iterative, so any depth is safe to check. */
export function nestedDeeperThan(list: PyValue[], max: number): boolean {
  const pending: Array<[PyValue[], number]> = [[list, 1]];
  for (let next = pending.pop(); next; next = pending.pop()) {
    const [items, depth] = next;
    if (depth > max) return true;
    for (const item of items) if (Array.isArray(item)) pending.push([item, depth + 1]);
  }
  return false;
}

/** Reads one literal starting at s[start] (after optional spaces). */
export function readPythonLiteral(s: string, start = 0, depth = 0): ReadResult {
  const i = skipSpace(s, start);
  if (i >= s.length) return { ok: false, error: 'the text ends where a value was expected', at: i };
  const ch = s[i];
  if (ch === '[' || ch === '(') {
    if (depth >= MAX_DEPTH) return { ok: false, error: `lists are nested more than ${MAX_DEPTH} deep`, at: i };
    return readSequence(s, i, ch === '[' ? ']' : ')', depth);
  }
  if (startsString(s, i)) return readStrings(s, i);
  const number = /^[-+]?(?:\d+\.?\d*(?:[eE][-+]?\d+)?|\.\d+(?:[eE][-+]?\d+)?)/.exec(s.slice(i, i + 64));
  if (number) return { ok: true, value: Number(number[0]), end: i + number[0].length };
  const word = /^[A-Za-z_]\w*/.exec(s.slice(i, i + 64));
  if (word && word[0] in CONSTANTS) return { ok: true, value: CONSTANTS[word[0]], end: i + word[0].length };
  const shown = word ? word[0] : ch;
  return { ok: false, error: `unexpected ${JSON.stringify(shown)} where a string, number or list was expected`, at: i };
}

// `all` unquoted can only mean the access entry "all".
const CONSTANTS: Record<string, PyValue> = { True: true, False: false, None: null, all: 'all' };

function startsString(s: string, i: number): boolean {
  return i < s.length && (isQuote(s[i]) || (/[rRuU]/.test(s[i]) && isQuote(s[i + 1] ?? '')));
}

/**
 * One string, or several joined: adjacent (Python's implicit concatenation) or with `+` between them.
 * Takes r"" (raw) and u"" prefixes.
 */
function readStrings(s: string, start: number): ReadResult {
  let value = '';
  let i = start;
  for (;;) {
    const raw = s[i] === 'r' || s[i] === 'R';
    const str = scanString(s, isQuote(s[i]) ? i : i + 1, raw);
    if (!str.ok) return str;
    value += str.value;
    let next = skipSpace(s, str.end);
    if (s[next] === '+' && startsString(s, skipSpace(s, next + 1))) next = skipSpace(s, next + 1);
    if (!startsString(s, next)) return { ok: true, value, end: str.end };
    i = next;
  }
}

function readSequence(s: string, open: number, close: string, depth: number): ReadResult {
  const items: PyValue[] = [];
  let i = skipSpace(s, open + 1);
  while (s[i] !== close) {
    const item = readPythonLiteral(s, i, depth + 1);
    if (!item.ok) return item;
    items.push(item.value);
    i = skipSpace(s, item.end);
    if (s[i] === ',') i = skipSpace(s, i + 1);
    else if (s[i] !== close) {
      if (i >= s.length) return { ok: false, error: `the list is never closed with ${close}`, at: open };
      return { ok: false, error: `expected "," or "${close}" but found ${JSON.stringify(s[i])}`, at: i };
    }
  }
  return { ok: true, value: items, end: i + 1 };
}

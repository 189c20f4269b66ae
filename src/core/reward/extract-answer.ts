/**
 * Finds the final answer in a model's response, by the strongest marker present: the last
 * `<answer>` block, a JSON `"answer"` field, the last `\boxed{}` / `\fbox{}`, GSM8K's `#### n`, a closing phrase
 * ("The answer is X", "Final answer: X"), and for numeric kinds the last number. Multiple choice
 * answers come back as a capital letter. Code answers: extractCode.
 */
import type { TaskKind } from '../task.ts';
import { commandArguments, type CommandArgument } from './latex-groups.ts';
import { extractChoice } from './choice.ts';
import { lastNumber, plainNumber } from './numbers.ts';
import { parsePythonLiteral } from './python-literal.ts';

const BOX_COMMANDS = ['boxed', 'fbox'];
// "The answer is X", "Final answer: X", "**Answer:** X"; X is the next non-blank line.
const ANSWER_PHRASE = /\banswer\b\s*(?:\*\*)?\s*(?:is\b|:|=)\s*(?:\*\*)?\s*:?\s*([^\n]+)/gi;

/** The last `<answer>` block as written; a block left open at the end of the text runs to its end. */
function lastAnswerBlockText(text: string): string | null {
  const open = text.toLowerCase().lastIndexOf('<answer>');
  if (open < 0) return null;
  const start = open + '<answer>'.length;
  const close = text.toLowerCase().indexOf('</answer>', start);
  return text.slice(start, close < 0 ? undefined : close);
}

/** The text of the last `<answer>` block, trimmed; see lastAnswerBlockText. */
export function lastAnswerBlock(text: string): string | null {
  return lastAnswerBlockText(text)?.trim() ?? null;
}

function lastMatch(text: string, pattern: RegExp): string | null {
  let last: string | null = null;
  for (const m of text.matchAll(pattern)) last = m[1];
  return last;
}

/** The answer a closing phrase names, without decoration: `$...$`, `**bold**`, the rest of the sentence. */
function phraseAnswer(text: string): string | null {
  let phrase = lastMatch(text, ANSWER_PHRASE);
  // "Final answer: the answer is 5": the innermost phrase names the answer.
  for (let inner = phrase && lastMatch(phrase, ANSWER_PHRASE); inner; inner = lastMatch(inner, ANSWER_PHRASE)) phrase = inner;
  if (phrase === null) return null;
  const s = phrase.replace(/\*\*/g, '').trim();
  const math = /^\$+([^$]+)\$+/.exec(s) ?? /^\\\((.+?)\\\)/.exec(s) ?? /^\\\[(.+?)\\\]/.exec(s);
  if (math) return math[1].trim();
  return s.split(/[.;](?:\s|$)|\s+(?:because|since|which|as)\s/)[0].trim();
}

// What may stand between the boxes of one answer written as several: `\boxed{2}, \boxed{3}`, `$\boxed{2}$ and $\boxed{3}$`.
const BOX_JOINER = /^(?:[\s,;$]|\\[,;! ]|\\q?quad|\band\b|\bor\b|\\text\{\s*(?:and|or)\s*\})*$/;

/**
 * The last `\boxed{}`'s content, joined by commas with the boxes just before it that only a joiner
 * separates; a box repeated (`$\boxed{3}$ $\boxed{3}$`) counts once.
 */
function lastBoxes(text: string): string | null {
  const boxes = commandArguments(text, BOX_COMMANDS);
  if (boxes.length === 0) return null;
  let first = boxes.length - 1;
  const joined = (before: CommandArgument, box: CommandArgument) => before.end <= box.start && BOX_JOINER.test(text.slice(before.end, box.start)); // not when nested
  while (first > 0 && joined(boxes[first - 1], boxes[first])) first--;
  return [...new Set(boxes.slice(first).map((b) => b.content.trim()))].join(', ');
}

// The `"answer"` field of a JSON object the prompt asked for: `"answer": "18"`, `"answer": [1, 2]`.
const JSON_ANSWER_KEY = /"answer"\s*:\s*/g;

/**
 * A JSON string's contents. Models write LaTeX into JSON with single backslashes (`"\frac{1}{2}"`), so an
 * escape that runs on into letters (`\frac`, `\neq`, `\times`) is kept as written, not read as `\f`, `\n`, `\t`.
 */
function jsonStringContents(raw: string): string {
  const controls: Record<string, string> = { b: '\b', f: '\f', n: '\n', r: '\r', t: '\t' };
  return raw.replace(/\\(?:(u[0-9a-fA-F]{4})|(["\\/])|([bfnrt])(?![a-zA-Z]))/g, (_, code?: string, char?: string, control?: string) => {
    if (code) return String.fromCharCode(parseInt(code.slice(1), 16));
    return char ?? controls[control!];
  });
}

/** The text of a bare JSON value starting at `at`: up to a comma, brace or line end outside brackets and strings. */
function bareJsonValue(text: string, at: number): string {
  let depth = 0;
  for (let i = at; i < text.length; i++) {
    const c = text[i];
    if (c === '"') {
      for (i++; i < text.length && text[i] !== '"'; i++) if (text[i] === '\\') i++;
    } else if ('[{('.includes(c)) depth++;
    else if (depth > 0 && ']})'.includes(c)) depth--;
    else if (depth === 0 && (c === ',' || c === '}' || c === '\n')) return text.slice(at, i).trim();
  }
  return text.slice(at).trim();
}

/**
 * The value of the last JSON `"answer"` field in `text` that is not the prompt's blank (`"___"` echoed back):
 * a string's contents as written, else the value; null when there is none.
 */
function jsonAnswer(text: string): string | null {
  for (const key of [...text.matchAll(JSON_ANSWER_KEY)].reverse()) {
    const at = key.index + key[0].length;
    let value: string;
    if (text[at] === '"') {
      let end = at + 1;
      while (end < text.length && text[end] !== '"') end += text[end] === '\\' ? 2 : 1;
      value = jsonStringContents(text.slice(at + 1, end));
    } else value = bareJsonValue(text, at);
    if (!/^_+$/.test(value.trim())) return value;
  }
  return null;
}

/** The answer marked inside `text`, by priority, before any kind-specific fallback. */
function markedAnswer(text: string): string | null {
  const json = jsonAnswer(text);
  if (json?.trim()) return lastBoxes(json) ?? json;
  const boxed = lastBoxes(text);
  if (boxed !== null) return boxed;
  const hashes = lastMatch(text, /####\s*([^\n]+)/g);
  if (hashes !== null) return hashes.trim();
  return phraseAnswer(text);
}

/** "so $x = 5$ here" -> `x = 5`: prose around a math answer, as written inside an answer block. */
function inlineMath(text: string): string {
  // A `$` escaped as `\$` is a dollar sign inside the math, not a delimiter.
  const segments = [...text.matchAll(/(?<!\\)\$\$?((?:\\\$|[^$])+?)(?<!\\)\$\$?|\\\((.+?)\\\)/g)];
  if (segments.length === 0) return text;
  const last = segments[segments.length - 1];
  return (last[1] ?? last[2]).trim();
}

// A response that is only an answer (`3/4`, `x \in [2,5)`, `\text{Monday}`, `12 square units`, `no
// solution`): short, with few words of prose. Longer unmarked text is reasoning that never stated its
// answer, and guessing one from it would reward that. Numeric kinds take one only without words
// (`\frac{1}{2}`, `10^3`): their last-number fallback reads prose like `18 dollars` better.
const MAX_BARE_LENGTH = 200;
const MAX_BARE_WORDS: Partial<Record<TaskKind, number>> = { math: 2, gsm8k: 0, number: 0 };

function bareAnswer(text: string, kind: TaskKind): string | null {
  const s = text.trim();
  const maxWords = MAX_BARE_WORDS[kind];
  if (maxWords === undefined || s === '' || s.length > MAX_BARE_LENGTH) return null;
  if (kind !== 'math' && !/\d/.test(s)) return null; // a number has a digit
  const words = s.replace(/\\(?:begin|end)\{[^}]*\}|\\[a-zA-Z]+/g, ' ').match(/[a-zA-Z]{2,}/g) ?? [];
  return words.length <= maxWords ? s : null;
}

// Decoration around a predicted value: a code fence, code ticks, bold.
const LITERAL_WRAPPERS: [RegExp, RegExp][] = [
  [/^```(?:python|py)?[ \t]*\n/, /\n```$/],
  [/^`/, /`$/],
  [/^\*\*/, /\*\*$/],
];

/**
 * A predicted Python value as written: without the decoration around it (removed only where it both opens and
 * closes the text), the `assert f(...) ==` it completes, or CRUXEval's closing `[/PYTHON]` tag. An answer in a
 * JSON string that is no literal once undecorated is the string itself, kept as written, spaces included.
 */
function literalAnswer(json: string | null, response: string): string | null {
  let s = (json ?? response)
    .trim()
    .replace(/\[\/PYTHON\]$/, '')
    .trim();
  for (let k = 0; k < LITERAL_WRAPPERS.length; k++) {
    const [open, close] = LITERAL_WRAPPERS[k];
    const [a, b] = [open.exec(s), close.exec(s)];
    if (a && b && a[0].length + b[0].length <= s.length) {
      s = s.slice(a[0].length, s.length - b[0].length).trim();
      k = -1; // `**`x`**`: look again from the outermost kind
    }
  }
  s = s.replace(/^assert\s+[^\n]*?\)\s*==\s*/, '').trim();
  if (json !== null && parsePythonLiteral(s) === null) return json;
  return s === '' ? null : s;
}

/** Drops `<think>` blocks, and all before a closing tag left without its opening one (a chat template opened it). */
function stripThinking(text: string): string {
  const rest = text.replace(/<think>[\s\S]*?<\/think>/gi, '');
  const orphan = rest.toLowerCase().lastIndexOf('</think>');
  return orphan < 0 ? rest : rest.slice(orphan + '</think>'.length);
}

/**
 * The final answer of `text` for a task of `kind`, or null when none can be found.
 * `choices` (multiple choice) lets an answer given as an option's text count as its letter.
 */
export function extractAnswer(text: string, kind: TaskKind, choices?: readonly string[]): string | null {
  const response = stripThinking(text);
  const block = lastAnswerBlock(response);
  const candidate = block !== null ? (markedAnswer(block) ?? block) : (markedAnswer(response) ?? bareAnswer(response, kind));
  if (kind === 'mcq') return extractChoice(candidate, response, choices);
  if (kind === 'literal') return literalAnswer(jsonAnswer(block ?? response), candidate ?? response);
  // Markdown emphasis and code ticks around an answer are decoration: `**18**`, `` `x+1` ``.
  const plain = candidate?.replace(/\*\*|`/g, '').trim();
  const numeric = kind === 'gsm8k' || kind === 'number';
  if (plain) return kind === 'math' ? inlineMath(plain) : numeric ? plainNumber(plain) : plain;
  if (block === '') return null;
  if (numeric) {
    const last = lastNumber(response);
    return last === null ? null : plainNumber(last);
  }
  if (kind === 'exact') return response.trim() || null;
  return null;
}

const PYTHON_FENCES = ['', 'python', 'py', 'python3'];

/** The fenced blocks of `text` in order, with their language; one left open at the end runs to the end. */
function fencedBlocks(text: string): { lang: string; code: string }[] {
  const blocks: { lang: string; code: string }[] = [];
  let open: { lang: string; lines: string[] } | null = null;
  for (const line of text.split(/\r?\n/)) {
    const fence = /^\s*```+\s*([\w+.-]*)\s*$/.exec(line);
    if (fence && !open) open = { lang: fence[1].toLowerCase(), lines: [] };
    else if (fence && open && fence[1] === '') {
      blocks.push({ lang: open.lang, code: open.lines.join('\n') });
      open = null;
    } else open?.lines.push(line);
  }
  if (open) blocks.push({ lang: open.lang, code: open.lines.join('\n') });
  return blocks;
}

/**
 * The program in a response: the last Python (or unlabelled) fenced block, inside the last `<answer>`
 * block when there is one; without fences, the answer block's text or else the whole response, taken as
 * code. Indentation is kept (a HumanEval answer may be a function body). Null when nothing is left.
 */
export function extractCode(text: string): string | null {
  const response = stripThinking(text);
  const scope = lastAnswerBlockText(response) ?? response;
  const blocks = fencedBlocks(scope);
  const python = blocks.filter((b) => PYTHON_FENCES.includes(b.lang));
  const code = blocks.length > 0 ? (python.at(-1)?.code ?? '') : scope;
  // Leading blank lines go, the first line's indentation stays.
  const trimmed = code.replace(/^(?:[ \t]*\r?\n)+/, '').trimEnd();
  return trimmed === '' ? null : trimmed;
}

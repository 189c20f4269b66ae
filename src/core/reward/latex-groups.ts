/**
 * Brace-aware reading of LaTeX: the argument of `\boxed{...}` and friends, and splitting at
 * separators that sit outside every bracket pair. Unbalanced input never throws: a missing
 * closing brace runs to the end of the text, which is how a truncated completion reads.
 */

const OPENERS: Record<string, string> = { '{': '}', '(': ')', '[': ']' };

/** The text of the balanced `{...}` group opening at `open` (which must be `{`), and the index after it. */
export function readBraceGroup(text: string, open: number): { content: string; end: number } {
  let depth = 0;
  for (let i = open; i < text.length; i++) {
    const c = text[i];
    if (c === '\\') {
      i++; // an escaped brace (`\{`) does not open or close a group
      continue;
    }
    if (c === '{') depth++;
    else if (c === '}' && --depth === 0) return { content: text.slice(open + 1, i), end: i + 1 };
  }
  return { content: text.slice(open + 1), end: text.length };
}

export interface CommandArgument {
  content: string;
  /** Where the command starts, and the index just after its argument. */
  start: number;
  end: number;
}

/**
 * The argument of each `\name{...}` (or `\name x`, one token) among `names`, e.g. every `\boxed{}`
 * of a solution, in order. An empty `\boxed{}` (the format echoed back) holds no answer and is skipped.
 */
export function commandArguments(text: string, names: readonly string[]): CommandArgument[] {
  const pattern = new RegExp(`\\\\(?:${names.join('|')})(?![a-zA-Z])`, 'g');
  const found: CommandArgument[] = [];
  for (const m of text.matchAll(pattern)) {
    let i = m.index + m[0].length;
    while (text[i] === ' ') i++;
    if (text[i] === '{') {
      const group = readBraceGroup(text, i);
      if (group.content.trim() !== '') found.push({ content: group.content, start: m.index, end: group.end });
    } else {
      const token = /^[^\s$]+/.exec(text.slice(i));
      if (token) found.push({ content: token[0], start: m.index, end: i + token[0].length });
    }
  }
  return found;
}

/**
 * Splits at each `separator` (a string such as ',' or '\\cup') found outside (), [], {} and
 * outside `\{ \}`; brackets need not match in kind, so the interval `[0, 1)` splits too.
 */
export function splitTopLevel(text: string, separator: string): string[] {
  const parts: string[] = [];
  let depth = 0;
  let start = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (c === '\\' && (text[i + 1] === '{' || text[i + 1] === '}')) {
      depth += text[i + 1] === '{' ? 1 : -1;
      i++;
      continue;
    }
    if (depth === 0 && text.startsWith(separator, i)) {
      parts.push(text.slice(start, i));
      start = i + separator.length;
      i = start - 1;
      continue;
    }
    if (c in OPENERS) depth++;
    else if (c === ')' || c === ']' || c === '}') depth = Math.max(0, depth - 1);
  }
  parts.push(text.slice(start));
  return parts;
}

/**
 * True when the first bracket of `text` (`(`, `[`, `{` or `\{`) closes at its very end, with any kind
 * of closer: `(a, (b))` and `[0, 1)` yes, `(a)(b)` no.
 */
export function isWrapped(text: string): boolean {
  let depth = 0;
  for (let i = 0; i < text.length; i++) {
    let width = 1;
    let delta = 0;
    if (text[i] === '\\') {
      const command = /^\\([{}]|[a-zA-Z]+|.)/.exec(text.slice(i));
      width = command ? command[0].length : 1;
      if (command?.[1] === '{') delta = 1;
      else if (command?.[1] === '}') delta = -1;
    } else if ('([{'.includes(text[i])) delta = 1;
    else if (')]}'.includes(text[i])) delta = -1;
    if (i === 0 && delta !== 1) return false;
    depth += delta;
    if (depth === 0) return i + width === text.length;
    i += width - 1;
  }
  return false;
}

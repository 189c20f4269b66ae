/**
 * The structure of a normalised answer, read before any element is compared: a matrix, a
 * bracketed tuple or interval, a set or bare comma list (`a \pm b` counts as two values), or a
 * single element; plus the rewrites that put an answer in that form (`x < 3` as an interval,
 * `x = 5` as its value).
 */
import { isWrapped, splitTopLevel } from './latex-groups.ts';

export type Shape =
  | { kind: 'scalar'; text: string }
  | { kind: 'bracketed'; open: string; close: string; items: string[] } // tuple, point, interval
  | { kind: 'set'; items: string[]; braced: boolean } // `\{...\}`, a bare comma list, `a \pm b`
  | { kind: 'matrix'; rows: string[][] };

function matrixRows(text: string): string[][] | null {
  // `\left[\begin{array}{cc} ... \end{array}\right]` keeps its brackets after normalisation.
  const m = /^[([]?\\begin\{([pbBvV]?matrix|array)\}(?:\{[^}]*\})?([\s\S]*)\\end\{\1\}[)\]]?$/.exec(text);
  if (!m) return null;
  return m[2]
    .split('\\\\')
    .map((row) => row.split('&').map((cell) => cell.trim()))
    .filter((row) => row.some((cell) => cell !== ''));
}

// Each `\pm` doubles the alternatives; past this many they are not worth expanding.
const MAX_PLUS_MINUS = 4;

/** `a \pm b` -> [`a+b`, `a-b`] (each `\pm`/`\mp` doubles the list); null when there is none. */
export function expandPlusMinus(text: string): string[] | null {
  const m = /\\(pm|mp)(?![a-zA-Z])\s*/.exec(text);
  if (!m || text.split(/\\(?:pm|mp)(?![a-zA-Z])/).length - 1 > MAX_PLUS_MINUS) return null;
  const [first, second] = m[1] === 'pm' ? ['+', '-'] : ['-', '+'];
  const before = text.slice(0, m.index);
  const after = text.slice(m.index + m[0].length);
  return [before + first + after, before + second + after].flatMap((t) => expandPlusMinus(t) ?? [t]);
}

/** A set's items with each `a \pm b` counted as its two values. */
function setOf(items: string[], braced: boolean): Shape {
  return { kind: 'set', items: items.flatMap((item) => expandPlusMinus(item) ?? [item]), braced };
}

/** The shape of a normalised answer. */
export function shapeOf(text: string): Shape {
  const rows = matrixRows(text);
  if (rows) return { kind: 'matrix', rows };
  if (text.startsWith('\\{') && text.endsWith('\\}') && isWrapped(text)) return setOf(splitTopLevel(text.slice(2, -2), ','), true);
  // A bare `{1,2}` (braces left unescaped) is a set too; `{5}` alone is just a group.
  if (text.startsWith('{') && text.endsWith('}') && isWrapped(text)) {
    const items = splitTopLevel(text.slice(1, -1), ',');
    if (items.length > 1) return setOf(items, true);
  }
  if (/^[([]/.test(text) && /[)\]]$/.test(text) && isWrapped(text)) {
    const items = splitTopLevel(text.slice(1, -1), ',');
    if (items.length > 1) return { kind: 'bracketed', open: text[0], close: text[text.length - 1], items };
  }
  const items = splitTopLevel(text, ',');
  if (items.length > 1 || expandPlusMinus(text)) return setOf(items, false);
  return { kind: 'scalar', text };
}

/** The entries of a single-row or single-column matrix, or of a parenthesised tuple; else null. */
export function vectorOf(shape: Shape): string[] | null {
  if (shape.kind === 'bracketed' && shape.open === '(') return shape.items;
  if (shape.kind === 'matrix' && shape.rows.every((r) => r.length === 1)) return shape.rows.map((r) => r[0]);
  if (shape.kind === 'matrix' && shape.rows.length === 1) return shape.rows[0];
  return null;
}

// A name, or a tuple of names, on the left of an answer: `x =`, `f(x) =`, `(a, b) =`.
const NAMED_LEFT = /^(?:\\?[a-zA-Z]+(?:_\{?\w+\}?)?(?:\([a-z]\))?|\((?:\\?[a-zA-Z]+(?:_\w+)?,)+\\?[a-zA-Z]+(?:_\w+)?\))$/;

/** The right side of `name = value`, or null when `text` is not that. */
export function namedValue(text: string): string | null {
  const sides = splitTopLevel(text, '=');
  return sides.length === 2 && NAMED_LEFT.test(sides[0]) ? sides[1] : null;
}

const LESS = '\\s*(<|\\\\le(?![a-zA-Z]))\\s*';
const GREATER = '\\s*(>|\\\\ge(?![a-zA-Z]))\\s*';
const VARIABLE = '\\\\?[a-zA-Z]+';

/** `x < 3`, `x \ge 2`, `1 < x \le 4` as the interval they describe; null for anything else. */
export function inequalityInterval(text: string): string | null {
  const t = text.trim();
  const between = new RegExp(`^([^<>=]+?)${LESS}${VARIABLE}${LESS}([^<>=]+)$`).exec(t);
  if (between) return `${between[2] === '<' ? '(' : '['}${between[1]},${between[4]}${between[3] === '<' ? ')' : ']'}`;
  const below = new RegExp(`^${VARIABLE}${LESS}([^<>=]+)$`).exec(t);
  if (below) return `(-\\infty,${below[2]}${below[1] === '<' ? ')' : ']'}`;
  const above = new RegExp(`^${VARIABLE}${GREATER}([^<>=]+)$`).exec(t);
  if (above) return `${above[1] === '>' ? '(' : '['}${above[2]},\\infty)`;
  return null;
}

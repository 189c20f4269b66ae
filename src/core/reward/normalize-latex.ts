/**
 * String-level clean-up of a LaTeX answer before it is compared: the forms a MATH grader must
 * see as the same (`\dfrac` / `\frac`, `\frac12`, `\left(`, `\text{...}`, `^\circ`, `\$`, `\!`,
 * thousands separators, a unit word after the number, a trailing period) all become one form.
 * Percent signs are kept as a bare `%`: whether they matter depends on the other answer.
 */
import { readBraceGroup } from './latex-groups.ts';

const TEXT_COMMANDS = ['text', 'textbf', 'textit', 'textrm', 'texttt', 'mathrm', 'mathbf', 'mathit', 'mbox', 'operatorname', 'boxed', 'fbox'];

// Unit words that may follow a numeric answer; dropped only after a number or closing bracket.
// One- and two-letter ones could be a variable (`2m`), so they need a space before them.
const UNIT_WORDS = [
  'square',
  'sq',
  'cubic',
  'units?',
  'inch(?:es)?',
  'feet',
  'foot',
  'yards?',
  'miles?',
  'centimeters?',
  'millimeters?',
  'meters?',
  'kilometers?',
  'degrees?',
  'radians?',
  'seconds?',
  'minutes?',
  'hours?',
  'days?',
  'weeks?',
  'months?',
  'years?',
  'cents?',
  'dollars?',
  'pounds?',
  'ounces?',
  'grams?',
  'liters?',
  'mph',
  'cm',
  'mm',
  'km',
  'kg',
  'ft',
  'lbs?',
];
const SHORT_UNIT_WORDS = ['in', 'yd', 'mi', 'm', 's', 'g', 'oz', 'hrs?', 'min', 'sec'];
const UNIT = `(?:${UNIT_WORDS.join('|')}|(?<=\\s)(?:${SHORT_UNIT_WORDS.join('|')}))`;
// Spaces are matched before each unit only (not also after it), so a failing match cannot try every split of
// the spaces between units: that would take exponential time on `1 cm   cm   cm ... x`.
const TRAILING_UNIT = new RegExp(`([\\d)}])(?:\\s*${UNIT}\\b(?:\\s*(?:\\^\\{?[23]\\}?|²|³))?)+\\s*$`, 'i');

/** Replaces `\cmd{content}` by `content` for each command in `names`, innermost groups included. */
function unwrapCommands(text: string, names: readonly string[]): string {
  const pattern = new RegExp(`\\\\(?:${names.join('|')})\\s*(?=\\{)`);
  let out = text;
  for (let m = pattern.exec(out); m; m = pattern.exec(out)) {
    const group = readBraceGroup(out, m.index + m[0].length);
    out = out.slice(0, m.index) + group.content + out.slice(group.end);
  }
  return out;
}

/** `\frac12`, `\frac 34`, `\frac9{19}`, `\sqrt2` -> braced arguments, so later steps see one form. */
function braceShorthandArguments(text: string): string {
  let out = '';
  let i = 0;
  const readArgument = (): string => {
    while (text[i] === ' ') i++;
    if (text[i] === '{') {
      const group = readBraceGroup(text, i);
      i = group.end;
      return `{${group.content}}`;
    }
    const command = /^\\[a-zA-Z]+/.exec(text.slice(i));
    const token = command ? command[0] : (text[i] ?? '');
    i += token.length;
    return `{${token}}`;
  };
  while (i < text.length) {
    const m = /^\\(frac|sqrt)(?![a-zA-Z])/.exec(text.slice(i));
    if (!m) {
      out += text[i++];
      continue;
    }
    i += m[0].length;
    out += m[0];
    if (m[1] === 'frac') out += readArgument() + readArgument();
    else {
      while (text[i] === ' ') i++;
      if (text[i] === '[') {
        const close = text.indexOf(']', i);
        if (close > i) {
          out += text.slice(i, close + 1);
          i = close + 1;
        }
      }
      out += readArgument();
    }
  }
  return out;
}

function stripDelimiters(text: string): string {
  let out = text.trim();
  for (;;) {
    const inner =
      /^\$\$([\s\S]*)\$\$$/.exec(out)?.[1] ?? /^\$([\s\S]*)\$$/.exec(out)?.[1] ?? /^\\\(([\s\S]*)\\\)$/.exec(out)?.[1] ?? /^\\\[([\s\S]*)\\\]$/.exec(out)?.[1];
    if (inner === undefined) return out;
    out = inner.trim();
  }
}

/** Joins digit groups written with thousands separators (`10,\!080`, `1,000,000`). */
function joinThousands(text: string): string {
  const explicit = text.replace(/\{,\}/g, ',').replace(/(\d),\\!\s*(?=\d{3}(?!\d))/g, '$1');
  // A bare `1,000` is a number only when nothing brackets it: `(1,000)` may be a pair.
  if (/^[([{]|\\\{/.test(explicit)) return explicit;
  return explicit.replace(/(^|[^\d.,])(\d{1,3}(?:,\d{3})+)(?![\d,])/g, (_, before: string, digits: string) => before + digits.replace(/,/g, ''));
}

/** `0.1\overline{6}` -> `\frac{1}{6}`: a repeating decimal as the fraction it is. */
function repeatingDecimals(text: string): string {
  return text.replace(/(\d*)\.(\d*)\\overline\{(\d+)\}/g, (_, whole: string, fixed: string, repeat: string) => {
    const all = Number(`${whole}${fixed}${repeat}`);
    const head = Number(`${whole}${fixed}` || '0');
    const denominator = (10 ** repeat.length - 1) * 10 ** fixed.length;
    return `\\frac{${all - head}}{${denominator}}`;
  });
}

const VULGAR_FRACTIONS: Record<string, string> = { '½': '\\frac{1}{2}', '⅓': '\\frac{1}{3}', '⅔': '\\frac{2}{3}', '¼': '\\frac{1}{4}', '¾': '\\frac{3}{4}' };

/** The one textual form of a LaTeX answer; never throws. */
export function normalizeLatex(answer: string): string {
  let s = stripDelimiters(answer);
  s = s.replace(/[½⅓⅔¼¾]/g, (c) => VULGAR_FRACTIONS[c]);
  s = s.replace(/\\(?:d|t|c)frac(?![a-zA-Z])/g, '\\frac').replace(/\\(?:d|t)binom(?![a-zA-Z])/g, '\\binom');
  s = s.replace(/\\displaystyle|\\limits/g, '');
  s = s.replace(/\^\s*\{\s*\\circ\s*\}|\^\s*\\circ|\\circ|°|\\degree/g, '');
  s = joinThousands(s);
  s = s.replace(/(?<!\\)\\[!,;:> ]|\\q?quad(?![a-zA-Z])|~/g, ' ');
  // Words in \text after a final number name its unit or objects (`6 \text{ ways}`, `5.4\text{ cents}`).
  s = s.replace(/([\d}])\s*\\(?:text|mbox|mathrm)\s*\{\s*[a-zA-Z]{2}[a-zA-Z ]*\}\s*(?:\^\s*\{?[23]\}?)?\s*\.?\s*$/, '$1');
  s = unwrapCommands(s, TEXT_COMMANDS);
  s = s.replace(/^(-?)\s*infinity$/i, '$1\\infty');
  s = s.replace(/\\(?:left|right|big|Big|bigg|Bigg)[lr]?(?![a-zA-Z])\s*(\.)?/g, '');
  s = s.replace(/\\langle(?![a-zA-Z])/g, '(').replace(/\\rangle(?![a-zA-Z])/g, ')');
  s = s.replace(/≤|\\leq(?![a-zA-Z])|\\leqslant/g, '\\le ').replace(/≥|\\geq(?![a-zA-Z])|\\geqslant/g, '\\ge ');
  s = s.replace(/\\lt(?![a-zA-Z])/g, '<').replace(/\\gt(?![a-zA-Z])/g, '>');
  s = s.replace(/^(?:\\approx|\\sim|≈)\s*/, '');
  s = s.replace(/\\mathbb\s*\{?R\}?|^all real numbers$/i, '(-\\infty,\\infty)');
  s = s.replace(/(\d)\s*percent\b/g, '$1%');
  // "2 or 3", "\text{ and }": a list of answers.
  // (Matched from the start of a run of spaces only, so a long run costs linear time.)
  s = s.replace(/(?<!\s)(?:\s*,)?\s+(?:or|and)\s+/g, ',');
  s = repeatingDecimals(s);
  // `1.5e-3` alone is scientific notation (a product with Euler's e is never written that way).
  s = s.replace(/^(-?\d+(?:\.\d+)?)[eE]([+-]?\d+)$/, '$1\\times10^{$2}');
  s = s.replace(/\\%/g, '%').replace(/\\\$|\$/g, '');
  s = braceShorthandArguments(s);
  // `\log_2 8`: an unbraced sub/superscript is one character, which the space removal below would hide.
  s = s.replace(/([_^])(\w)\s+(?=[\w\\(])/g, '$1{$2}');
  s = s.trim().replace(/[.\s]+$/, '');
  s = s.replace(TRAILING_UNIT, '$1');
  s = s.replace(/^[a-zA-Z]\s*\\in\s*/, '');
  s = s.replace(/\\varnothing|\\\{\s*\\\}/g, '\\emptyset');
  // Spaces carry no meaning in math mode, except that `\cot x` must not become `\cotx`; NUL marks the kept ones.
  s = s
    .replace(/(\\[a-zA-Z]+)\s+(?=[a-zA-Z0-9])/g, '$1\u0000')
    .replace(/\s+/g, '')
    // eslint-disable-next-line no-control-regex
    .replace(/\u0000/g, ' ');
  s = s.replace(/([_^])\{(\w)\}(?!\w)/g, '$1$2');
  s = s.replace(/^\(([A-Ea-e])\)$/, (_, letter: string) => letter.toUpperCase());
  return s;
}

/**
 * Whether two MATH-style answers mean the same: normalised text first, then structure (matrices,
 * `\pm`, unions, sets and unordered lists, tuples and intervals), then each element as an
 * equation, a percentage, a number in a base, or an expression evaluated with mathjs.
 * Never throws: whatever cannot be understood is compared as normalised text.
 */
import { differencesProportional, evaluateClosed, expressionsEqual } from './expression-equal.ts';
import { inequalityInterval, namedValue, shapeOf, vectorOf, type Shape } from './answer-shape.ts';
import { splitTopLevel } from './latex-groups.ts';
import { normalizeLatex } from './normalize-latex.ts';
import { canonicalDecimal } from './numbers.ts';
import { numbersClose } from './numeric-close.ts';

// Longer answers are prose, not mathematics: compared as text only.
const MAX_MATH_LENGTH = 400;
const MAX_STRUCTURED_LENGTH = 4000;

// Matching long lists item by item costs a quadratic number of evaluations; past this, compare text.
const MAX_MATCHED_ITEMS = 40;

/** Each item of `a` matched to a distinct equivalent item of `b`. */
function sameMultiset(a: string[], b: string[]): boolean {
  if (a.length !== b.length) return false;
  if (a.length > MAX_MATCHED_ITEMS) return [...a].sort().join() === [...b].sort().join();
  const unused = [...b];
  for (const x of a) {
    const k = unused.findIndex((y) => equivalent(x, y));
    if (k < 0) return false;
    unused.splice(k, 1);
  }
  return true;
}

function sameSequence(a: string[], b: string[]): boolean {
  return a.length === b.length && a.every((x, k) => equivalent(x, b[k]));
}

function shapesEqual(a: Shape, b: Shape): boolean {
  if (a.kind === 'scalar' && b.kind === 'scalar') return scalarsEqual(a.text, b.text);
  if (a.kind === 'matrix' && b.kind === 'matrix') {
    return a.rows.length === b.rows.length && a.rows.every((row, k) => sameSequence(row, b.rows[k]));
  }
  if (a.kind === 'matrix' || b.kind === 'matrix') {
    const [u, v] = [vectorOf(a), vectorOf(b)];
    return u !== null && v !== null && sameSequence(u, v);
  }
  if (a.kind === 'bracketed' && b.kind === 'bracketed') {
    return a.open === b.open && a.close === b.close && sameSequence(a.items, b.items);
  }
  const members = (s: Shape) => (s.kind === 'set' ? s.items : s.kind === 'scalar' ? [s.text] : null);
  const [u, v] = [members(a), members(b)];
  if (u && v) return sameMultiset(u, v);
  // A bare list written for an ordered pair: `1, 2` for `(1, 2)`.
  const ordered = (s: Shape) => (s.kind === 'bracketed' && s.open === '(' ? s.items : s.kind === 'set' && !s.braced ? s.items : null);
  const [p, q] = [ordered(a), ordered(b)];
  return p !== null && q !== null && sameSequence(p, q);
}

/** Compares when one or both sides are equations; null when neither is. */
function equationsEqual(a: string, b: string): boolean | null {
  const sidesA = splitTopLevel(a, '=');
  const sidesB = splitTopLevel(b, '=');
  if (sidesA.length === 2 && sidesB.length === 2) {
    if (sidesA[0] === sidesB[0] && scalarsEqual(sidesA[1], sidesB[1])) return true;
    return differencesProportional(`(${sidesA[0]})-(${sidesA[1]})`, `(${sidesB[0]})-(${sidesB[1]})`) ?? false;
  }
  // `x = 5` for `5`: a value named by a variable.
  const [valueA, valueB] = [namedValue(a), namedValue(b)];
  if (sidesA.length === 2 && sidesB.length === 1) return valueA !== null && scalarsEqual(valueA, b);
  if (sidesB.length === 2 && sidesA.length === 1) return valueB !== null && scalarsEqual(a, valueB);
  return null;
}

/** `50%` against `0.5`, and `50%` against `50`. */
function percentEqual(a: string, b: string): boolean | null {
  const pa = a.endsWith('%');
  const pb = b.endsWith('%');
  if (!pa && !pb) return null;
  const [x, y] = [pa ? a.slice(0, -1) : a, pb ? b.slice(0, -1) : b];
  if (scalarsEqual(x, y)) return true;
  if (pa === pb) return false;
  const [percent, plain] = pa ? [evaluateClosed(x), evaluateClosed(y)] : [evaluateClosed(y), evaluateClosed(x)];
  return percent !== null && plain !== null && numbersClose(percent.re / 100, plain.re) && numbersClose(percent.im / 100, plain.im);
}

/** `2516_8` against `2516`: a number written in a base, once with its subscript and once without. */
function baseNumberEqual(a: string, b: string): boolean | null {
  const based = /^(\d+)_\{?\d+\}?$/;
  const ma = based.exec(a);
  const mb = based.exec(b);
  if (ma && !mb && /^\d+$/.test(b)) return ma[1] === b;
  if (mb && !ma && /^\d+$/.test(a)) return mb[1] === a;
  return null;
}

/**
 * Exact comparison where a side is written as a number: two numerals must be the same number, and an
 * integer against a closed expression (`10^6`, `\binom{5}{2}`) must be that integer. The tolerance is
 * for values computed both ways; it would let `1000001` pass for `1000000` or `10^6`. null when
 * neither rule applies.
 */
function writtenNumberEqual(a: string, b: string): boolean | null {
  const [x, y] = [canonicalDecimal(a), canonicalDecimal(b)];
  if (x !== null && y !== null) return x === y;
  const [whole, other] = x !== null && !x.includes('.') ? [x, b] : y !== null && !y.includes('.') ? [y, a] : [null, null];
  if (whole === null) return null;
  const value = evaluateClosed(other);
  if (value === null || value.im !== 0) return null;
  const nearest = Math.round(value.re);
  if (!numbersClose(value.re, nearest)) return false;
  return Number.isSafeInteger(nearest) ? String(nearest) === whole : numbersClose(nearest, Number(whole));
}

const isWord = (s: string) => /^[a-zA-Z]{3,}$/.test(s);

function scalarsEqual(a: string, b: string): boolean {
  if (a === b) return true;
  if (a.toLowerCase() === b.toLowerCase() && !/[\d\\]/.test(a)) return /[a-zA-Z]{2,}/.test(a); // `Yes`, `yes`
  if (isWord(a) || isWord(b)) return false; // `east` is a word, not e*a*s*t
  const special = writtenNumberEqual(a, b) ?? equationsEqual(a, b) ?? percentEqual(a, b) ?? baseNumberEqual(a, b);
  if (special !== null) return special;
  if (a.length > MAX_MATH_LENGTH || b.length > MAX_MATH_LENGTH) return false;
  return expressionsEqual(a, b) ?? false;
}

function equivalent(a: string, b: string): boolean {
  const x = inequalityInterval(a) ?? a.trim();
  const y = inequalityInterval(b) ?? b.trim();
  if (x === y) return true;
  if (!x || !y) return false;
  const [valueX, valueY] = [namedValue(x), namedValue(y)];
  if (valueX !== null && !y.includes('=')) return equivalent(valueX, y);
  if (valueY !== null && !x.includes('=')) return equivalent(x, valueY);
  const unionX = splitTopLevel(x, '\\cup');
  const unionY = splitTopLevel(y, '\\cup');
  if (unionX.length > 1 || unionY.length > 1) return sameMultiset(unionX, unionY);
  return shapesEqual(shapeOf(x), shapeOf(y));
}

/** True when the two answers are mathematically the same; never throws. */
export function mathEquivalent(a: string, b: string): boolean {
  let x = a.trim();
  let y = b.trim();
  if (x.length > MAX_STRUCTURED_LENGTH || y.length > MAX_STRUCTURED_LENGTH) return x === y; // not worth normalising
  try {
    [x, y] = [normalizeLatex(a), normalizeLatex(b)];
    if (x.length > MAX_STRUCTURED_LENGTH || y.length > MAX_STRUCTURED_LENGTH) return x === y;
    return equivalent(x, y);
  } catch {
    return x === y;
  }
}

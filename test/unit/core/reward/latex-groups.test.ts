import { describe, expect, it } from 'vitest';
import { commandArguments, isWrapped, readBraceGroup, splitTopLevel } from '../../../../src/core/reward/latex-groups.ts';

describe('readBraceGroup', () => {
  it('reads a balanced group, skipping escaped braces', () => {
    expect(readBraceGroup('x{a{b}c}d', 1)).toEqual({ content: 'a{b}c', end: 8 });
    expect(readBraceGroup('{\\{1\\}}!', 0)).toEqual({ content: '\\{1\\}', end: 7 });
  });

  it('runs an unclosed group to the end of the text', () => {
    expect(readBraceGroup('{abc', 0)).toEqual({ content: 'abc', end: 4 });
  });
});

describe('commandArguments', () => {
  const contents = (text: string, names: string[]) => commandArguments(text, names).map((a) => a.content);

  it('finds every box in order, with nested braces, and where each one spans', () => {
    expect(contents('\\boxed{1} then \\boxed{\\frac{a}{\\sqrt{b}}}.', ['boxed'])).toEqual(['1', '\\frac{a}{\\sqrt{b}}']);
    expect(contents('\\boxed{1} and \\fbox{2}', ['boxed', 'fbox'])).toEqual(['1', '2']);
    expect(commandArguments('a \\boxed{12}!', ['boxed'])).toEqual([{ content: '12', start: 2, end: 12 }]);
  });

  it('reads a one-token argument and ignores longer command names', () => {
    expect(contents('so \\boxed 5$.', ['boxed'])).toEqual(['5']);
    expect(contents('\\boxedx{3}', ['boxed'])).toEqual([]);
    expect(contents('no box', ['boxed'])).toEqual([]);
  });

  it('skips an empty box, which holds no answer', () => {
    expect(contents('\\boxed{4} (format: \\boxed{ })', ['boxed'])).toEqual(['4']);
  });
});

describe('splitTopLevel', () => {
  it('splits only outside brackets, whatever their kind', () => {
    expect(splitTopLevel('(1,2),[3,4),\\{5,6\\},f(7,8)', ',')).toEqual(['(1,2)', '[3,4)', '\\{5,6\\}', 'f(7,8)']);
    expect(splitTopLevel('(0,1)\\cup(2,3)', '\\cup')).toEqual(['(0,1)', '(2,3)']);
    expect(splitTopLevel('abc', ',')).toEqual(['abc']);
  });
});

describe('isWrapped', () => {
  it('is true only when the first bracket closes at the very end', () => {
    expect(isWrapped('(a,(b))')).toBe(true);
    expect(isWrapped('[0,1)')).toBe(true);
    expect(isWrapped('\\{1,2\\}')).toBe(true);
    expect(isWrapped('(a)(b)')).toBe(false);
    expect(isWrapped('a(b)')).toBe(false);
    expect(isWrapped('(a')).toBe(false);
  });
});

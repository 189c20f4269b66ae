import { describe, expect, it } from 'vitest';
import { findClosingBracket, readPythonLiteral } from '../../../../src/core/workflow/python-literal.ts';

function read(text: string) {
  const r = readPythonLiteral(text);
  if (!r.ok) throw new Error(`did not read ${text}: ${r.error}`);
  return r.value;
}

describe('readPythonLiteral', () => {
  it('reads ints, negative ints, floats, constants and nested lists', () => {
    expect(read('[0, -3, 2.5, True, False, None, [1, [2]], []]')).toEqual([0, -3, 2.5, true, false, null, [1, [2]], []]);
  });

  it('reads both quote styles, triple quotes and tuples', () => {
    expect(read(`['a', "b", """c "d" e""", '''f''', ("g", 1)]`)).toEqual(['a', 'b', 'c "d" e', 'f', ['g', 1]]);
  });

  it('decodes escapes as Python does', () => {
    expect(read(String.raw`["a\nb\tc", 'it\'s', "say \"hi\"", "back\\slash", "\u00e9\x41", "\ud83d\ude00", "\d"]`)).toEqual([
      'a\nb\tc',
      "it's",
      'say "hi"',
      'back\\slash',
      'éA',
      '😀',
      '\\d',
    ]);
  });

  it('keeps a backslash that starts a LaTeX command instead of making a control character', () => {
    expect(read(String.raw`["\frac{1}{2} \times 3 \neq \theta, \boxed{4}, \right)", "line\nnext"]`)).toEqual([
      '\\frac{1}{2} \\times 3 \\neq \\theta, \\boxed{4}, \\right)',
      'line\nnext',
    ]);
  });

  it('keeps every backslash before letters that \\b \\f \\v \\a would start: no subtask means a backspace or a bell', () => {
    expect(read(String.raw`["\boldsymbol{v} \fbox{1} \vdash \arg z \bigl( \tbinom{4}{2} \textrm{cm} \nexists"]`)).toEqual([
      '\\boldsymbol{v} \\fbox{1} \\vdash \\arg z \\bigl( \\tbinom{4}{2} \\textrm{cm} \\nexists',
    ]);
    expect(read(String.raw`["a\nthen b\tc", "\b\f"]`)).toEqual(['a\nthen b\tc', '\b\f']);
  });

  it('keeps \\u and \\x without hex digits as written', () => {
    expect(read(String.raw`["\underline{x} \xyz"]`)).toEqual(['\\underline{x} \\xyz']);
  });

  it('tolerates trailing commas, comments, line breaks and implicit concatenation', () => {
    const text = `[\n  "Solve the "\n  "whole thing",  # the solver\n  'Check it',\n]`;
    expect(read(text)).toEqual(['Solve the whole thing', 'Check it']);
    expect(read(`["Solve " +\n "it", 'a' + 'b']`)).toEqual(['Solve it', 'ab']);
  });

  it('reads smart quotes as string delimiters and as straight quotes inside strings', () => {
    expect(read('[“Solve it”, ‘Check the student’s work’, \'Don\'t stop\', "say “hi”", "\\u2019"]')).toEqual([
      'Solve it',
      "Check the student's work",
      "Don't stop",
      'say "hi"',
      '\u2019',
    ]);
  });

  it('reads an unescaped quote inside a string as text when a letter follows it', () => {
    expect(read(`["Explain why "x" is odd", 'the student's answer']`)).toEqual(['Explain why "x" is odd', "the student's answer"]);
  });

  it('keeps brackets inside strings as text', () => {
    expect(read(`["use a[i] and ]", '[[']`)).toEqual(['use a[i] and ]', '[[']);
  });

  it('refuses absurd nesting instead of recursing without end', () => {
    const deep = '['.repeat(5000) + ']'.repeat(5000);
    expect(readPythonLiteral(deep)).toMatchObject({ ok: false, error: 'lists are nested more than 32 deep', at: 32 });
  });

  it('reports where it stopped and why', () => {
    const r = readPythonLiteral('[1, foo]');
    expect(r).toEqual({ ok: false, error: 'unexpected "foo" where a string, number or list was expected', at: 4 });
    expect(readPythonLiteral('[1 2]')).toMatchObject({ ok: false, error: 'expected "," or "]" but found "2"', at: 3 });
    expect(readPythonLiteral('["open]')).toMatchObject({ ok: false, error: 'a string opened with " is never closed' });
  });
});

describe('findClosingBracket', () => {
  it('finds the bracket that balances the first, skipping strings and escapes', () => {
    const s = `x = [["a]", 'b\\']'], "c"] tail ]`;
    expect(findClosingBracket(s, 4)).toBe(s.indexOf(' tail') - 1);
  });

  it('returns -1 when the list never closes or closes with the wrong bracket', () => {
    expect(findClosingBracket('[1, [2, 3]', 0)).toBe(-1);
    expect(findClosingBracket('[1, (2]', 0)).toBe(-1);
  });
});

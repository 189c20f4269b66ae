import { describe, expect, it } from 'vitest';
import { parsePythonLiteral, pythonEqual } from '../../../../src/core/reward/python-literal.ts';
import { extractAnswer } from '../../../../src/core/reward/extract-answer.ts';
import { gradeAnswer } from '../../../../src/core/reward/grade.ts';

const equal = (a: string, b: string) => {
  const [x, y] = [parsePythonLiteral(a), parsePythonLiteral(b)];
  if (x === null || y === null) throw new Error(`not a literal: ${x === null ? a : b}`);
  return pythonEqual(x, y);
};

describe('parsePythonLiteral and pythonEqual: Python == on literals', () => {
  it.each([
    // quotes: either kind, escapes, raw strings, implicit concatenation
    ["'abc'", '"abc"'],
    ["'it\\'s'", '"it\'s"'],
    ["'a\\nb'", '"a\\nb"'],
    ["'\\x41\\u00e9'", "'Aé'"],
    ["r'\\n'", "'\\\\n'"],
    ["'a' 'b'", "'ab'"],
    ["'''x'''", "'x'"],
    // numbers: int, float and bool compare by value
    ['1', '1.0'],
    ['True', '1'],
    ['-3', '-3.0'],
    ['1e3', '1000'],
    ['0x1F', '31'],
    ['1_000', '1000'],
    ['-0.0', '0'],
    ['123456789012345678901234567890', '123456789012345678901234567890'],
    // containers: nested, trailing commas, order-free sets and dicts
    ['(1)', '1'],
    ['(1, 2,)', '(1, 2)'],
    ['[1, [2, (3, {"x": [4.5]})]]', "[1,[2,(3,{'x':[4.50]})]]"],
    ["{'a': 1, 'b': 2}", "{'b': 2, 'a': 1}"],
    ["{'a': 1, 'a': 2}", "{'a': 2}"],
    ['{1, 2}', '{2, 1, 1}'],
    ['set()', 'set()'],
    ['[ ]', '[]'],
    ['None', 'None'],
  ])('%s == %s', (a, b) => {
    expect(equal(a, b)).toBe(true);
    expect(equal(b, a)).toBe(true);
  });

  it.each([
    ['[(4, 1)]', '[[4, 1]]'], // a tuple is never a list
    ['(1,)', '1'],
    ["'1'", '1'],
    ['1.5', '1'],
    ["b'x'", "'x'"],
    ['{}', 'set()'],
    ['[1, 2]', '[2, 1]'],
    ["{'a': 1}", "{'a': 1, 'b': 2}"],
    ['None', 'False'],
    ["'abc'", "'abc '"],
    ['123456789012345678901234567891', '123456789012345678901234567890'],
  ])('%s != %s', (a, b) => {
    expect(equal(a, b)).toBe(false);
  });

  it('is null for what is no literal: names, calls, expressions, unbalanced or unclosed text', () => {
    for (const text of ['abc', 'f(1)', '1 + 2', '[1, 2', "'abc", '(1 2)', '{1: }', "'a\nb'", '', 'nan', '{{}}', '{[1]: 2}', '{(1, [2])}']) {
      expect(parsePythonLiteral(text), text).toBeNull();
    }
  });
});

describe("the 'literal' kind (CRUXEval output prediction)", () => {
  const grade = (response: string, answer: string) => gradeAnswer(response, { kind: 'literal', answer });

  it('reads the JSON answer field ZeroEval asks for, as a Python value', () => {
    expect(grade('```json\n{"reasoning": "...", "answer": "[(4, 1), (2, 3)]"}\n```', '[(4, 1), (2, 3)]').correct).toBe(true);
    expect(grade('{"reasoning": "...", "answer": "[[4, 1], [2, 3]]"}', '[(4, 1), (2, 3)]').correct).toBe(false);
    expect(grade('{"answer": "[\\"123\\", \\"23\\"]"}', "['123', '23']").correct).toBe(true);
    expect(grade('{"answer": "{\\"a\\": 1}"}', "{'a': 1}").correct).toBe(true);
    expect(grade('{"answer": [1, 2]}', '[1, 2]').correct).toBe(true);
  });

  it('takes an unquoted string as the string it spells, spaces included, but a number stays a number', () => {
    expect(grade('{"answer": "seiq d"}', "'seiq d'").correct).toBe(true);
    expect(grade('{"answer": "  a b  "}', "'  a b  '").correct).toBe(true);
    expect(grade('{"answer": "a b"}', "'  a b  '").correct).toBe(false);
    expect(grade('{"answer": "  7  "}', "'  7  '").correct).toBe(false); // 7 is a literal: the int
    expect(grade('{"answer": ""}', "''").correct).toBe(true);
    expect(grade('{"answer": "372359"}', "'372359'").correct).toBe(false);
    expect(grade('{"answer": "{{{{}}}}"}', "'{{{{}}}}'").correct).toBe(true); // a set of a dict is no value
    expect(grade('{"answer": "\'\\"\\"\'"}', "''").correct).toBe(false);
  });

  it('drops decoration that wraps the whole value, not characters of the value', () => {
    expect(extractAnswer('{"answer": "`[1, 2]`"}', 'literal')).toBe('[1, 2]');
    expect(extractAnswer("**'ab'**", 'literal')).toBe("'ab'");
    expect(extractAnswer('{"answer": "\'5*83*23***\'"}', 'literal')).toBe("'5*83*23***'");
    expect(grade('{"answer": "\'5*83*23***\'"}', "'5*83*23***'").correct).toBe(true);
    expect(extractAnswer("assert f('a') == 'ab'\n[/PYTHON]", 'literal')).toBe("'ab'");
    expect(extractAnswer('The answer is [1, 2].', 'literal')).toBe('[1, 2]');
  });
});

describe('a JSON "answer" field as an answer marker', () => {
  it.each([
    ['{"reasoning": "9 * 2 = 18", "answer": "18"}', 'gsm8k', '18'],
    ['{"reasoning": "...", "answer": 18}', 'gsm8k', '18'],
    ['```json\n{"reasoning": "x = \\\\frac{1}{2}", "answer": "\\\\frac{\\\\sqrt{3}}{2}"}\n```', 'math', '\\frac{\\sqrt{3}}{2}'],
    // LaTeX written with single backslashes keeps them (`\f`, `\n`, `\t` followed by letters are commands)
    ['{"answer": "\\frac{1}{2}"}', 'math', '\\frac{1}{2}'],
    ['{"answer": "\\neq 3 \\times 2"}', 'math', '\\neq 3 \\times 2'],
    ['{"answer": "$\\\\boxed{7}$"}', 'math', '7'],
    ['I think \\boxed{3}. {"answer": "5"}', 'gsm8k', '5'],
    ['{"answer": "B"}', 'mcq', 'B'],
  ] as const)('%s (%s) -> %s', (text, kind, expected) => {
    expect(extractAnswer(text, kind)).toBe(expected);
  });

  it('takes the last field, and falls back to other markers when it is empty', () => {
    expect(extractAnswer('{"answer": "3"} no, {"answer": "4"}', 'gsm8k')).toBe('4');
    expect(extractAnswer('{"answer": "16"} in the format {"reasoning": "___", "answer": "___"}', 'gsm8k')).toBe('16');
    expect(extractAnswer('{"answer": ""} so the answer is 12', 'gsm8k')).toBe('12');
  });
});

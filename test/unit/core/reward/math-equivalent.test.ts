import { describe, expect, it } from 'vitest';
import { mathEquivalent } from '../../../../src/core/reward/math-equivalent.ts';

type Pair = [string, string];

// Each pair is checked both ways round: equivalence is symmetric.
function expectPairs(pairs: Pair[], expected: boolean) {
  for (const [a, b] of pairs) {
    expect(mathEquivalent(a, b), `${a}  vs  ${b}`).toBe(expected);
    expect(mathEquivalent(b, a), `${b}  vs  ${a}`).toBe(expected);
  }
}

describe('mathEquivalent: LaTeX normalisation', () => {
  it('accepts the same value written in other LaTeX forms', () => {
    expectPairs(
      [
        ['\\frac{1}{2}', '\\dfrac{1}{2}'],
        ['\\frac{1}{2}', '\\tfrac12'],
        ['\\frac 34', '\\frac{3}{4}'],
        ['\\frac9{19}', '\\frac{9}{19}'],
        ['\\left( 3, \\frac{\\pi}{2} \\right)', '(3,\\frac{\\pi}{2})'],
        ['\\text{5}', '5'],
        ['\\textbf{5}', '5'],
        ['\\mathrm{5}', '5'],
        ['\\boxed{5}', '5'],
        ['$5$', '5'],
        ['90^\\circ', '90'],
        ['90^{\\circ}', '90'],
        ['90°', '90'],
        ['\\frac{270}7\\text{ degrees}', '\\frac{270}{7}'],
        ['50\\%', '50'],
        ['\\$18.90', '18.9'],
        ['\\$32,\\!348', '32348'],
        ['10,\\!080', '10080'],
        ['11,\\! 111,\\! 111,\\! 100', '11111111100'],
        ['1,000', '1000'],
        ['1{,}000', '1000'],
        ['864 \\mbox{ inches}^2', '864'],
        ['15\\mbox{ cm}^2', '15'],
        ['5.4 \\text{ cents}', '5.4'],
        ['10 \\text{ square units}', '10'],
        ['5 m', '5'],
        ['3\\!\\cdot\\!4', '12'],
        ['1\\,000\\;', '1000'],
        ['3.', '3'],
        ['x = 5', '5'],
        ['y=-2x', '-2x'],
        ['\\theta = \\frac{\\pi}{3}', '\\frac{\\pi}{3}'],
        ['f(x) = x^2', 'x^2'],
        ['x \\in [-2,7]', '[-2,7]'],
        ['\\text{(C)}', 'C'],
        ['\\text{(C)}', '(C)'],
        ['\\text{Evelyn}', 'evelyn'],
        ['\\text{no solution}', 'No Solution'],
        ['\\varnothing', '\\emptyset'],
        ['2516_8', '2516'],
        ['4210_{5}', '4210_5'],
        ['\\langle 1, 2 \\rangle', '(1,2)'],
      ],
      true,
    );
  });

  it('keeps apart what normalisation must not merge', () => {
    expectPairs(
      [
        ['1,000', '1'],
        ['1,2', '12'],
        ['(1,000)', '1000'],
        ['2m', '2'],
        ['\\text{east}', '\\text{seat}'],
        ['\\text{east}', '\\text{west}'],
        ['yes', 'no'],
        ['2516_8', '2517'],
        ['\\text{(A)}', 'B'],
        ['A', 'B'],
        ['0', '\\emptyset'],
      ],
      false,
    );
  });
});

describe('mathEquivalent: numbers', () => {
  it('compares values with a tolerance, fractions against decimals', () => {
    expectPairs(
      [
        ['\\frac{1}{2}', '0.5'],
        ['1/2', '.5'],
        ['-\\frac12', '-0.5'],
        ['\\frac{-1}{2}', '-\\frac{1}{2}'],
        ['2.50', '2.5'],
        ['1.0', '1'],
        ['-0', '0'],
        ['1/3', '0.333333333333'],
        ['\\frac{3840}{289}', '13.28719723183391'],
        ['.0000672', '6.72\\times10^{-5}'],
        ['1.5 \\cdot 10^3', '1500'],
        ['10^{-3}', '0.001'],
        ['1.5e-3', '0.0015'],
        ['2^{10}', '1024'],
        ['137 \\frac{1}{2}', '137.5'],
        ['2½', '2.5'],
        ['1\\frac{4}{5}', '\\frac{9}{5}'],
        ['\\dfrac{7}{2}', '3\\frac{1}{2}'],
        ['5!', '120'],
        ['\\binom{5}{2}', '10'],
        ['|-3|', '3'],
        ['\\lfloor 3.7 \\rfloor', '3'],
        ['0.\\overline{3}', '\\frac13'],
        ['0.1\\overline{6}', '\\frac16'],
        ['\\approx 3.5', '3.5'],
      ],
      true,
    );
  });

  it('tells different values apart', () => {
    expectPairs(
      [
        ['1/2', '2'],
        ['\\frac{2}{3}', '\\frac{3}{2}'],
        ['10', '100'],
        ['1000', '100'],
        ['100', '10,000'],
        ['0.5', '5'],
        ['-1', '1'],
        ['\\frac{1}{3}', '0.33'],
        ['\\pi', '3.14'],
        ['10^{-3}', '10^{3}'],
        ['1', '1.00001'],
        ['0.\\overline{3}', '0.3'],
      ],
      false,
    );
  });

  it('reads percentages as the number or its hundredth, but only one way round', () => {
    expectPairs(
      [
        ['12\\%', '0.12'],
        ['12\\%', '12'],
        ['12.5\\%', '\\frac{1}{8}'],
        ['50 percent', '0.5'],
      ],
      true,
    );
    expectPairs(
      [
        ['12\\%', '1.2'],
        ['12\\%', '12.5'],
        ['50\\%', '5'],
        ['0.12', '12'],
      ],
      false,
    );
  });
});

describe('mathEquivalent: structures', () => {
  it('compares tuples, points and intervals in order, brackets included', () => {
    expectPairs(
      [
        ['(1,2)', '\\left(1, 2\\right)'],
        ['(a, b]', '(a,b]'],
        ['[1,2)', '[1, \\frac{4}{2})'],
        ['(-\\infty, 0]', '(-\\infty,0]'],
        ['\\left[ \\frac{\\pi^2}{8}, \\frac{5 \\pi^2}{4} \\right]', '[\\pi^2/8, 5\\pi^2/4]'],
        ['(1,-16,-4,43)', '(1, -16, -4, 43)'],
        ['(1,2)', '1, 2'],
      ],
      true,
    );
    expectPairs(
      [
        ['(1,2)', '(2,1)'],
        ['(1,2)', '[1,2]'],
        ['(3,4]', '(3,4)'],
        ['(-\\infty, 0]', '(-\\infty, 0)'],
        ['(1,2)', '12'],
        ['(1,2,3)', '(1,2)'],
        ['(1,2)', '2, 1'],
      ],
      false,
    );
  });

  it('compares sets and comma lists without order', () => {
    expectPairs(
      [
        ['1, -2', '-2, 1'],
        ['3, 5, 7', '7,3,5'],
        ['\\{1, 2\\}', '\\{2, 1\\}'],
        ['\\{1,2\\}', '2,1'],
        ['{1,2,3}', '\\{3,2,1\\}'],
        ['\\{1\\pm\\sqrt{5},-2\\}', '-2, 1+\\sqrt5, 1-\\sqrt{5}'],
        ['1 \\pm \\sqrt{19}', '1-\\sqrt{19}, 1+\\sqrt{19}'],
        ['3 \\pm 2 \\sqrt{2}', '3+\\sqrt{8}, 3-\\sqrt8'],
        ['\\pm 2', '2,-2'],
        ['(-\\infty, 2) \\cup (3, \\infty)', '(3,\\infty)\\cup(-\\infty,2)'],
        ['x = \\frac{1}{2}, -3', '-3, 0.5'],
      ],
      true,
    );
    expectPairs(
      [
        ['1,-2', '1,2'],
        ['\\{1,2\\}', '\\{1,2,3\\}'],
        ['1,2', '1,2,2'],
        ['{1,2}', '(1,2)'],
        ['1 \\pm \\sqrt{19}', '1+\\sqrt{19}'],
        ['(-\\infty, 2) \\cup (3, \\infty)', '(-\\infty, 2) \\cup [3, \\infty)'],
        ['(-\\infty, 2) \\cup (3, \\infty)', '(-\\infty, 2)'],
      ],
      false,
    );
  });

  it('compares matrices and vectors elementwise', () => {
    expectPairs(
      [
        ['\\begin{pmatrix} -1/3 \\\\ 2/3 \\\\ 5/3 \\end{pmatrix}', '\\begin{pmatrix} -\\frac13 \\\\ \\frac{2}{3} \\\\ \\frac53 \\end{pmatrix}'],
        ['\\begin{pmatrix}1&2\\\\3&4\\end{pmatrix}', '\\begin{bmatrix}1 & 2 \\\\ 3 & 4\\end{bmatrix}'],
        ['\\begin{pmatrix} 1 \\\\ 2 \\end{pmatrix}', '(1,2)'],
        ['\\begin{pmatrix} -1 & 0 \\\\ 0 & -1 \\end{pmatrix}', '\\begin{pmatrix} -1 & 0 \\\\ 0 & -1 \\end{pmatrix}'],
        ['\\left[\\begin{array}{cc} 1 & 2 \\\\ 3 & 4 \\end{array}\\right]', '\\begin{pmatrix}1&2\\\\3&4\\end{pmatrix}'],
      ],
      true,
    );
    expectPairs(
      [
        ['\\begin{pmatrix}1&2\\\\3&4\\end{pmatrix}', '\\begin{pmatrix}1&3\\\\2&4\\end{pmatrix}'],
        ['\\begin{pmatrix} 1 \\\\ 2 \\end{pmatrix}', '(2,1)'],
        ['\\begin{pmatrix} 1 \\\\ 2 \\end{pmatrix}', '\\begin{pmatrix} 1 \\\\ 2 \\\\ 0 \\end{pmatrix}'],
      ],
      false,
    );
  });

  it('reads inequalities as intervals, and `name = value` as the value', () => {
    expectPairs(
      [
        ['x<3', '(-\\infty,3)'],
        ['x \\le 3', '(-\\infty,3]'],
        ['x\\geq 2', '[2,\\infty)'],
        ['1 < x \\le 4', '(1,4]'],
        ['(x,y) = (1,2)', '(1,2)'],
        ['x = 1, 2', '2,1'],
        ['x = \\pm 1', '\\{-1,1\\}'],
        ['[-1, 1]', '-1 \\le x \\le 1'],
        ['x=2 \\text{ and } x=3', '2,3'],
        ['2 \\text{ or } 3', '3, 2'],
        ['\\mathbb{R}', '(-\\infty,\\infty)'],
      ],
      true,
    );
    expectPairs(
      [
        ['x<3', '(-\\infty,3]'],
        ['x>3', '(-\\infty,3)'],
        ['(x,y) = (1,2)', '(2,1)'],
        ['2 \\text{ or } 3', '2'],
      ],
      false,
    );
  });

  it('compares equations as the same relation', () => {
    expectPairs(
      [
        ['y = 2x + 3', '2x+3'],
        ['2x + 3 = y', 'y = 2x+3'],
        ['5x - 7y + 11z + 4 = 0', '10x-14y+22z+8=0'],
      ],
      true,
    );
    expectPairs(
      [
        ['y = 2x + 3', 'y=2x-3'],
        ['5x - 7y + 11z + 4 = 0', '5x - 7y + 11z - 4 = 0'],
        ['5', 'x=6'],
        ['x + y = 5', '5'],
      ],
      false,
    );
  });
});

describe('mathEquivalent: symbolic expressions', () => {
  it('accepts equal expressions, with or without variables', () => {
    expectPairs(
      [
        ['2\\sqrt{2}', '\\sqrt{8}'],
        ['\\frac{\\sqrt{3}}{2}', '\\sqrt3/2'],
        ['\\sqrt{2}/2', '\\frac{1}{\\sqrt{2}}'],
        ['11\\sqrt2', '\\sqrt{242}'],
        ['\\frac{\\pi}{6}', '\\pi/6'],
        ['2\\pi', '6.283185307179586'],
        ['18+2\\pi', '2(\\pi + 9)'],
        ['\\frac{20000}{\\pi}', '20000\\pi^{-1}'],
        ['x^2+2x', '2x + x^2'],
        ['x^2+2x', 'x(x+2)'],
        ['(a+5)(b+2)', 'ab+2a+5b+10'],
        ['\\frac{11+9a}{20}', '\\frac{9a}{20}+\\frac{11}{20}'],
        ['\\cot x', '\\frac{\\cos x}{\\sin x}'],
        ['\\sin^2 x + \\cos^2 x', '1'],
        ['e^2', '\\exp(2)'],
        ['\\ln e', '1'],
        ['\\log_{2}(8)', '3'],
        ['\\log_2 8', '3'],
        ['2^{1/2}', '\\sqrt2'],
        ['√2', '\\sqrt{2}'],
        ['e^{i\\pi}', '-1'],
        ['\\frac{x^2-1}{x-1}', 'x+1'],
        ['\\sqrt[3]{27}', '3'],
        ['-2 + 7i', '7i-2'],
        ['i^2', '-1'],
        ['\\sqrt{-4}', '2i'],
        ['\\frac{1+\\sqrt{5}}{2}', '(1+\\sqrt5)/2'],
        ['p - q', '-q + p'],
        ['8n^2 + 4n + 1', '1 + 4n + 8n^2'],
        ['x_1 + x_2', 'x_{2} + x_{1}'],
        ['\\tan^{-1}(1)', '\\frac{\\pi}{4}'],
        ['\\arctan 1', '\\pi/4'],
      ],
      true,
    );
  });

  it('rejects expressions that differ', () => {
    expectPairs(
      [
        ['\\sqrt{2}', '2'],
        ['x+1', 'x-1'],
        ['x^2', 'x^3'],
        ['2x', '2y'],
        ['2k', '2k+2'],
        ['3R^2', '3r^2'],
        ['3R^2', '3R'],
        ['\\frac{x+1}{2}', '\\frac{x}{2}+1'],
        ['\\sqrt{3}/2', '\\sqrt{3}/3'],
        ['2\\sqrt{2}', '2\\sqrt{3}'],
        ['\\sin x', '\\cos x'],
        ['3+2i', '3-2i'],
        ['6', '6i'],
        ['e', '1'],
        ['ab', 'a+b'],
        ['|x|', 'x'],
        ['\\sqrt{x^2}', 'x'],
        ['0.707', '\\frac{\\sqrt2}{2}'],
        ['\\infty', '-\\infty'],
      ],
      false,
    );
  });

  it('never throws, and falls back to text for what it cannot read', () => {
    for (const [a, b] of [
      ['\\frac{', '}'],
      ['\\unknowncommand{x}', '\\unknowncommand{x}'],
      ['((((', '))'],
      ['', ''],
      ['a'.repeat(5000), 'b'],
    ]) {
      expect(() => mathEquivalent(a, b)).not.toThrow();
    }
    expect(mathEquivalent('\\unknowncommand{x}', '\\unknowncommand{x}')).toBe(true);
    expect(mathEquivalent('\\unknowncommand{x}', '\\unknowncommand{y}')).toBe(false);
    expect(mathEquivalent('0/0', '0/0')).toBe(true);
    expect(mathEquivalent('0/0', '1')).toBe(false);
    const long = Array.from({ length: 300 }, (_, k) => String(k));
    expect(mathEquivalent(long.join(', '), [...long].reverse().join(','))).toBe(true);
  });
});

import { describe, expect, it } from 'vitest';
import { latexToMathjs } from '../../../../src/core/reward/latex-to-mathjs.ts';

describe('latexToMathjs', () => {
  it.each([
    ['\\frac{\\sqrt{3}}{2}', '((sqrt(3))/(2))'],
    ['1\\frac{4}{5}', '(1+4/5)'],
    ['x^2\\frac{1}{2}', 'var_x^(2)*((1)/(2))'],
    ['\\tan^{-1}(1)', 'atan((1))'],
    ['2\\sqrt{2}', '2*sqrt(2)'],
    ['x^2+2x', 'var_x^(2)+2*var_x'],
    ['(a+5)(b+2)', '(var_a+5)*(var_b+2)'],
    ['\\sin^2 x', '(sin(var_x))^(2)'],
    ['\\log_2(8)', 'log((8),2)'],
    ['|x-1|', 'abs(var_x-1)'],
    ['-2+7i', '-2+7*i'],
    ['e^{i\\pi}', 'e^(i*pi)'],
    ['E+x_1', 'var_E+var_x_1'],
    ['\\sqrt[3]{-8}', 'nthRoot(-8,3)'],
    ['\\binom{5}{2}', 'combinations(5,2)'],
    ['3\\cdot 4\\div 2', '3*4/2'],
    ['\\theta^2', 'var_theta^(2)'],
  ])('%s -> %s', (latex, expected) => {
    expect(latexToMathjs(latex)).toBe(expected);
  });

  it('returns null for what it does not understand', () => {
    for (const latex of ['\\int x dx', 'a,b', 'x=1', '^2', '(1+2', '', '\\frac{1}', "f'(x)"]) {
      expect(latexToMathjs(latex), latex).toBeNull();
    }
  });
});

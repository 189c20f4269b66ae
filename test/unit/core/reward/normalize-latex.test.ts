import { describe, expect, it } from 'vitest';
import { normalizeLatex } from '../../../../src/core/reward/normalize-latex.ts';

describe('normalizeLatex', () => {
  it.each([
    ['$\\dfrac{17}{50}$.', '\\frac{17}{50}'],
    ['\\frac 34', '\\frac{3}{4}'],
    ['\\sqrt2+\\sqrt[3]{x}', '\\sqrt{2}+\\sqrt[3]{x}'],
    ['\\left( 3, \\frac{\\pi}{2} \\right)', '(3,\\frac{\\pi}{2})'],
    ['\\boxed{\\{1\\pm\\sqrt{5},-2\\}}', '\\{1\\pm\\sqrt{5},-2\\}'],
    ['\\$32,\\!348', '32348'],
    ['11,\\! 111,\\! 111,\\! 100', '11111111100'],
    ['(1,000)', '(1,000)'],
    ['3, 5, 7', '3,5,7'],
    ['864 \\mbox{ inches}^2', '864'],
    ['106^\\circ', '106'],
    ['50\\%', '50%'],
    ['x \\in [-2,7]', '[-2,7]'],
    ['\\text{(b)}', 'B'],
    ['\\cot x', '\\cot x'],
    ['x^{2}+y_{1}', 'x^2+y_1'],
    ['\\begin{pmatrix} 1 \\\\ 2 \\end{pmatrix}', '\\begin{pmatrix}1\\\\2\\end{pmatrix}'],
    ['6 \\text{ ways}', '6'],
    ['\\frac{270}7\\text{ degrees}', '\\frac{270}{7}'],
    ['2\\mathrm{e}', '2e'],
    ['\\text{Monday}', 'Monday'],
    ['-infinity', '-\\infty'],
    ['2 ,  and 3', '2,3'],
    ['1 cm   cm   cm   x', '1cmcmcmx'],
  ])('%s -> %s', (input, expected) => {
    expect(normalizeLatex(input)).toBe(expected);
  });
});

import { describe, expect, it } from 'vitest';
import { extractAnswer, extractCode, lastAnswerBlock } from '../../../../src/core/reward/extract-answer.ts';

describe('lastAnswerBlock', () => {
  it('takes the last block, and an unclosed one at the end', () => {
    expect(lastAnswerBlock('<answer>5</answer> then <ANSWER> 7 </ANSWER>')).toBe('7');
    expect(lastAnswerBlock('<answer>5</answer> then <answer>8')).toBe('8');
    expect(lastAnswerBlock('none')).toBeNull();
  });
});

describe('extractAnswer', () => {
  it.each([
    ['<answer>5</answer> on second thought <answer>7</answer>', '7'],
    ['work... <answer>\\boxed{\\frac{1}{2}}', '\\frac{1}{2}'],
    ['<answer>The value is $x = 5$.</answer>', 'x = 5'],
    ['so $\\boxed{\\left\\{ 1, \\frac{a}{\\sqrt{b}} \\right\\}}$ done', '\\left\\{ 1, \\frac{a}{\\sqrt{b}} \\right\\}'],
    ['first \\boxed{2}, then \\fbox{3}', '3'],
    ['The answer is $\\frac{3}{4}$. I hope it is correct.', '\\frac{3}{4}'],
    ['Final answer: the answer is 42. Done', '42'],
    ['The answer is 7 because 3 + 4 = 7', '7'],
    ['**Final Answer:**\n\n$\\frac{1}{3}$', '\\frac{1}{3}'],
    ['<answer>**12**</answer>', '12'],
    ['**Final Answer:** $12$', '12'],
    ['<think>maybe <answer>1</answer></think> I say <answer>2</answer>', '2'],
  ])('math: %s -> %s', (text, expected) => {
    expect(extractAnswer(text, 'math')).toBe(expected);
  });

  it('takes a bare answer whole: a short response with at most two words of prose', () => {
    expect(extractAnswer('  x \\in [2,5) ', 'math')).toBe('x \\in [2,5)');
    expect(extractAnswer('$\\frac{3}{4}$', 'math')).toBe('\\frac{3}{4}');
    expect(extractAnswer('12 square units', 'math')).toBe('12 square units');
    expect(extractAnswer('\\begin{pmatrix} 1 \\\\ 2 \\end{pmatrix}', 'math')).toBe('\\begin{pmatrix} 1 \\\\ 2 \\end{pmatrix}');
    expect(extractAnswer('The point is $(1, 2)$.', 'math')).toBeNull();
  });

  it('numeric kinds take a bare answer whole only when it has no words and a digit', () => {
    expect(extractAnswer('\\frac{1}{2}', 'number')).toBe('\\frac{1}{2}');
    expect(extractAnswer('2^{10}', 'gsm8k')).toBe('2^{10}');
    expect(extractAnswer('18 dollars', 'gsm8k')).toBe('18');
    expect(extractAnswer('x', 'gsm8k')).toBeNull();
  });

  it('joins boxes that only a comma or "and" separates, once each; boxes apart or nested are not joined', () => {
    expect(extractAnswer('The solutions are $\\boxed{2}$ and $\\boxed{3}$.', 'math')).toBe('2, 3');
    expect(extractAnswer('$x = \\boxed{2}, \\boxed{-1}$', 'math')).toBe('2, -1');
    expect(extractAnswer('$\\boxed{3}$\n\n$\\boxed{3}$', 'math')).toBe('3');
    expect(extractAnswer('First \\boxed{2}. Rechecking, the answer is \\boxed{3}.', 'math')).toBe('3');
    expect(extractAnswer('\\boxed{\\boxed{4}}', 'math')).toBe('4');
    expect(extractAnswer('\\boxed{4} (put it in \\boxed{})', 'math')).toBe('4');
  });

  it('drops what comes before a closing think tag whose opening tag was in the prompt', () => {
    expect(extractAnswer('maybe \\boxed{8}</think>\n\nThe answer is $7$.', 'math')).toBe('7');
  });

  it('gives no answer for math when nothing is marked, rather than guessing a number', () => {
    expect(extractAnswer('I computed 12 and then 13', 'math')).toBeNull();
    expect(extractAnswer('<answer></answer>', 'math')).toBeNull();
  });

  it.each([
    ['She makes 9 * 2 = 18.\n#### 18', '18'],
    ['#### 5\nlater\n#### $1,200', '1200'],
    ['It costs $1,200 in total.', '1200'],
    ['<answer>\\$-3.50</answer>', '-3.50'],
    ['So 3 + 4 = 7 apples', '7'],
    ['<answer>18 dollars</answer>', '18 dollars'],
  ])('gsm8k: %s -> %s', (text, expected) => {
    expect(extractAnswer(text, 'gsm8k')).toBe(expected);
    expect(extractAnswer(text, 'number')).toBe(expected);
  });

  it('treats an empty answer block as no answer, even with numbers around it', () => {
    expect(extractAnswer('I got 5. <answer></answer>', 'gsm8k')).toBeNull();
    expect(extractAnswer('nothing numeric', 'gsm8k')).toBeNull();
  });

  it('exact: a marked answer, else the whole response', () => {
    expect(extractAnswer('<answer> Paris </answer>', 'exact')).toBe('Paris');
    expect(extractAnswer('The answer is Paris.', 'exact')).toBe('Paris');
    expect(extractAnswer('  Paris\n', 'exact')).toBe('Paris');
    expect(extractAnswer('   ', 'exact')).toBeNull();
  });

  it.each([
    ['The answer is (C).', 'C'],
    ['Answer: D', 'D'],
    ['I pick **B**', 'B'],
    ['**(A)** is right', 'A'],
    ['B', 'B'],
    ['(b)', 'B'],
    ['<answer>B) Paris</answer>', 'B'],
    ['<answer>(C)</answer>', 'C'],
    ['\\boxed{\\text{(B)}}', 'B'],
    ['<answer>Option D</answer>', 'D'],
    ['(B) is correct since...', 'B'],
    ['C. Because the moon...', 'C'],
    ['the answer is B, because', 'B'],
    ['After all this, the correct option is (c).', 'C'],
    ['Option D is the right one... so option B is correct.', 'B'],
    ['The best option is a careful reading of the text.', null],
    ['A good question. I think it is likely', null],
    ['Options A and B look wrong, C is plausible, D too.', null],
    ['The answer is not A but C', null],
  ])('mcq: %s -> %s', (text, expected) => {
    expect(extractAnswer(text, 'mcq')).toBe(expected);
  });

  it('mcq: accepts an option text when the options are given', () => {
    const choices = ['London', 'Paris', 'Rome', 'Oslo'];
    expect(extractAnswer('<answer>paris</answer>', 'mcq', choices)).toBe('B');
    expect(extractAnswer('The answer is Rome.', 'mcq', choices)).toBe('C');
    expect(extractAnswer('Oslo', 'mcq', choices)).toBe('D');
    expect(extractAnswer('<answer>Berlin</answer>', 'mcq', choices)).toBeNull();
  });

  it('mcq: takes letters past D when there are more options', () => {
    const choices = ['1', '2', '3', '4', '5', '6'];
    expect(extractAnswer('The answer is (F)', 'mcq', choices)).toBe('F');
    expect(extractAnswer('The answer is (F)', 'mcq')).toBeNull();
  });
});

describe('extractCode', () => {
  it('takes the last python or unlabelled block, skipping other languages', () => {
    const text = 'First try:\n```python\ndef f(): return 1\n```\nBetter:\n```\ndef f(): return 2\n```\nOutput:\n```text\n2\n```';
    expect(extractCode(text)).toBe('def f(): return 2');
    expect(extractCode('```py\nprint(1)\n```\n```bash\nls\n```')).toBe('print(1)');
  });

  it('looks inside the last <answer> block, and after a closed <think>', () => {
    expect(extractCode('<think>```python\nwrong()\n```</think>\n<answer>\n```python\nright()\n```\n</answer>')).toBe('right()');
    expect(extractCode('<answer>x = 1\nprint(x)</answer>')).toBe('x = 1\nprint(x)');
  });

  it("keeps a function body's indentation and runs a block cut off at the end to its end", () => {
    expect(extractCode('\n\n    return a + b\n')).toBe('    return a + b');
    expect(extractCode('```python\nimport sys\nprint(sys.argv)')).toBe('import sys\nprint(sys.argv)');
  });

  it('is null for an empty response or only non-Python blocks', () => {
    expect(extractCode('  \n ')).toBeNull();
    expect(extractCode('```bash\nls\n```')).toBeNull();
  });
});

// The MATH500 grader on real data: each gold answer against the last \boxed{} of its own worked
// solution (written independently, often in another form), and against other rows' answers.
import { describe, expect, it } from 'vitest';
import { extractAnswer } from '../../../../src/core/reward/extract-answer.ts';
import { gradeAnswer } from '../../../../src/core/reward/grade.ts';
import { mathEquivalent } from '../../../../src/core/reward/math-equivalent.ts';
import { readData } from '../../../support/data.ts';

type Row = { solution: string; answer: string };
const rows = readData('math500/test.jsonl')
  .trim()
  .split('\n')
  .map((l) => JSON.parse(l) as Row);

describe('MATH500 data (data/math500)', () => {
  it('judges every gold answer equivalent to the last box of its solution, but one', () => {
    const failures: string[] = [];
    for (const row of rows) {
      const boxed = extractAnswer(row.solution, 'math');
      if (boxed === null || !mathEquivalent(row.answer, boxed) || !mathEquivalent(boxed, row.answer)) {
        failures.push(`${row.answer}  vs  ${boxed}`);
      }
    }
    expect(rows.length).toBe(500);
    // The one exception: that solution boxes the answer twice, as a mixed number and as the fraction,
    // and the two boxes read as a list of two answers.
    expect(failures).toEqual(['\\frac{639}{40}  vs  15\\frac{39}{40}, \\frac{639}{40}']);
  });

  it('grades responses that state the gold answer in the usual ways', () => {
    const failures: string[] = [];
    for (const row of rows) {
      for (const response of [
        `Working... so the final answer is $\\boxed{${row.answer}}$. I hope it is correct.`,
        `Reasoning.\n<answer>$${row.answer}$</answer>`,
        `Reasoning.\n<answer>${row.answer.replace(/\\frac/g, '\\dfrac').replace(/\s*([,=+])\s*/g, '$1')}`,
      ]) {
        if (!gradeAnswer(response, { kind: 'math', answer: row.answer }).correct) failures.push(`${row.answer}  in  ${response}`);
      }
    }
    expect(failures).toEqual([]);
  });

  it("finds other rows' different answers not equivalent", () => {
    const claimed: string[] = [];
    let pairs = 0;
    for (let i = 0; i < rows.length; i++) {
      for (const step of [1, 7, 131]) {
        const [a, b] = [rows[i].answer, rows[(i + step) % rows.length].answer];
        if (a.replace(/\s/g, '') === b.replace(/\s/g, '')) continue;
        pairs++;
        if (mathEquivalent(a, b)) claimed.push(`${a}  ~  ${b}`);
      }
    }
    expect(pairs).toBe(1488);
    // The one match is a right one: an equation's value is the value.
    expect(claimed).toEqual(['5  ~  x=5']);
  });

  it('finds no scalar answer equivalent to itself plus one', () => {
    const claimed = rows
      .map((r) => r.answer)
      .filter((a) => !/[,=]|\\cup|\\begin|\\pm|\\text/.test(a))
      .filter((a) => mathEquivalent(a, `${a}+1`));
    expect(claimed).toEqual([]);
  });
});

// The MATH500 grader on real data: each gold answer against the last \boxed{} of its own worked
// solution (written independently, often in another form), and against other rows' answers.
import { existsSync, readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { extractAnswer } from '../../../../src/core/reward/extract-answer.ts';
import { gradeAnswer } from '../../../../src/core/reward/grade.ts';
import { mathEquivalent } from '../../../../src/core/reward/math-equivalent.ts';

const FILE = resolve(process.cwd(), '../shared/data/math500/test.jsonl');
type Row = { solution: string; answer: string };
const rows: Row[] = existsSync(FILE) ? readFileSync(FILE, 'utf8').trim().split('\n').map((l) => JSON.parse(l) as Row) : [];

function report(label: string, failures: string[], total: number) {
  console.log(`${label}: ${total - failures.length}/${total} (${(100 * (1 - failures.length / total)).toFixed(1)}%)`);
  for (const f of failures.slice(0, 20)) console.log(`  ${f}`);
}

describe.skipIf(rows.length === 0)('MATH500 data (../shared/data/math500)', () => {
  it('judges every gold answer equivalent to the last box of its solution', () => {
    const failures: string[] = [];
    for (const row of rows) {
      const boxed = extractAnswer(row.solution, 'math');
      if (boxed === null || !mathEquivalent(row.answer, boxed) || !mathEquivalent(boxed, row.answer)) {
        failures.push(`${row.answer}  vs  ${boxed}`);
      }
    }
    report('answer ~ boxed(solution)', failures, rows.length);
    expect(rows.length).toBe(500);
    expect(failures.length / rows.length).toBeLessThanOrEqual(0.02);
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
    report('responses stating the gold', failures, rows.length * 3);
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
    // The one legitimate match in this sample is `5` vs `x=5`.
    report('different answers kept apart', claimed, pairs);
    expect(pairs).toBeGreaterThan(1300);
    expect(claimed.length / pairs).toBeLessThanOrEqual(0.005);
  });

  it('finds no scalar answer equivalent to itself plus one', () => {
    const claimed = rows
      .map((r) => r.answer)
      .filter((a) => !/[,=]|\\cup|\\begin|\\pm|\\text/.test(a))
      .filter((a) => mathEquivalent(a, `${a}+1`));
    expect(claimed).toEqual([]);
  });
});

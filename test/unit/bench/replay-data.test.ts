// The replay records of data/zeroeval and data/routerbench (data/README.md, "Replay records"): their shape,
// the counts the README states, and Baton's grades of them re-computed from the stored answer text.
import { describe, expect, it } from 'vitest';
import { TASK_KINDS } from '../../../src/core/task.ts';
import { gradeAnswer } from '../../../src/core/reward/index.ts';
import { costUsd, type Price } from '../../../src/core/pricing/index.ts';
import { answerPart, roundUsd, type ReplayRow } from '../../../bench/replay-data/records.ts';
import { ZEROEVAL_MODELS } from '../../../bench/replay-data/zeroeval-models.ts';
import { zeroEvalAnswer, zeroEvalCruxVerdict, zeroEvalNumberVerdict } from '../../../bench/replay-data/zeroeval-verdict.ts';
import { readData, readGzippedData } from '../../support/data.ts';

const SETS = [
  { file: 'zeroeval/gsm', rows: 1319, models: 42, records: 54760 },
  { file: 'zeroeval/math-l5', rows: 721, models: 40, records: 28529 },
  { file: 'zeroeval/crux', rows: 800, models: 48, records: 38400 },
  { file: 'routerbench/arc-challenge', rows: 1440, models: 11, records: 15840 },
  { file: 'routerbench/winogrande', rows: 1267, models: 11, records: 13937 },
  { file: 'routerbench/mbpp', rows: 427, models: 11, records: 4697 },
];

const rowsOf = (file: string) =>
  readGzippedData(`${file}.jsonl.gz`)
    .trim()
    .split('\n')
    .map((l) => JSON.parse(l) as ReplayRow);
const modelsOf = (source: string) =>
  (JSON.parse(readData(`${source}/models.json`)) as { id: string; price: unknown; priceSource: string; tokens: string }[]).map((m) => m.id);

describe.each(SETS)('$file', ({ file, rows: rowCount, models: modelCount, records: recordCount }) => {
  const rows = rowsOf(file);
  const source = file.split('/')[0];

  it('has the rows, models and records data/README.md states, in the shared shape', () => {
    expect(rows.length).toBe(rowCount);
    expect(new Set(rows.map((r) => r.id)).size).toBe(rowCount);
    const models = new Set(rows.flatMap((r) => Object.keys(r.records)));
    expect(models.size).toBe(modelCount);
    expect([...models].filter((m) => !modelsOf(source).includes(m))).toEqual([]);
    expect(rows.reduce((n, r) => n + Object.keys(r.records).length, 0)).toBe(recordCount);
    const splits: (string | undefined)[] = source === 'routerbench' ? ['train', 'test'] : [undefined];
    const bad = rows.filter(
      (row) =>
        !TASK_KINDS.includes(row.kind) ||
        row.question === '' ||
        typeof row.answer !== 'string' ||
        (row.kind === 'mcq' && !(row.choices!.length >= 2)) ||
        !splits.includes(row.split) ||
        Object.values(row.records).some(
          (r) =>
            typeof r.text !== 'string' ||
            typeof r.correct !== 'boolean' ||
            r.gradedBy !== (row.kind === 'code' ? 'source' : undefined) ||
            ![r.inputTokens, r.outputTokens, r.usd].every((n) => typeof n === 'number' && n >= 0),
        ),
    );
    expect(bad.map((r) => r.id)).toEqual([]);
  });

  it.skipIf(file.endsWith('mbpp'))('grades each stored answer text as stored (every 25th question, every model)', () => {
    const differ = rows
      .filter((_, k) => k % 25 === 0)
      .flatMap((row) => Object.entries(row.records).map(([model, r]) => ({ model, id: row.id, stored: r.correct, now: gradeAnswer(r.text, row).correct })))
      .filter((g) => g.stored !== g.now);
    expect(differ).toEqual([]);
  });
});

describe('answerPart', () => {
  it('keeps the tail of a response that grades as the whole does', () => {
    const response = '```json\n{\n  "reasoning": "16 - 3 - 4 = 9 eggs, sold at $2: 9 * 2 = 18.",\n  "answer": "18"\n}\n```';
    const part = answerPart(response, { kind: 'gsm8k', answer: '18' });
    expect(part).toEqual({ text: '"answer": "18"\n}\n```', correct: true, extracted: '18' });
    expect(gradeAnswer(part.text, { kind: 'gsm8k', answer: '18' }).correct).toBe(true);
  });

  it('keeps the whole response when no tail reads the same answer', () => {
    expect(answerPart('B', { kind: 'mcq', answer: 'B', choices: ['x', 'y'] }).text).toBe('B');
  });
});

describe("ZeroEval's own verdict, as restated", () => {
  it('reads the first JSON object, else the first written answer field, else a Llama-3.1 box', () => {
    expect(zeroEvalAnswer('{"reasoning": "r", "answer": "18"} then {"answer": "20"}', 'm')).toBe('18');
    expect(zeroEvalAnswer('{"answer": [1, "a"]}', 'm')).toBe("[1, 'a']");
    expect(zeroEvalAnswer('{"reasoning": "bad \\q", "answer": "7"', 'm')).toBe('7');
    expect(zeroEvalAnswer('so it is $\\boxed{36}$', 'Meta-Llama-3.1-8B-Instruct')).toBe('36');
    expect(zeroEvalAnswer('so it is $\\boxed{36}$', 'gpt-4o')).toBeNull();
  });

  it('compares first numbers for GSM8K and MATH, and quote-stripped text for CRUXEval', () => {
    expect(zeroEvalNumberVerdict('3*68 + 2*80 = 364', '# 364')).toBe(false);
    expect(zeroEvalNumberVerdict('$1,200', '# 1200')).toBe(true);
    expect(zeroEvalNumberVerdict('6\\sqrt{2}', '6')).toBe(true);
    expect(zeroEvalNumberVerdict('3/4', '0.75')).toBe(true);
    expect(zeroEvalCruxVerdict('abc', "'abc'")).toBe(true);
    expect(zeroEvalCruxVerdict('123', "'123'")).toBe(true);
    expect(zeroEvalCruxVerdict('["a"]', "['a']")).toBe(false);
  });
});

describe("ZeroEval's prices", () => {
  it('are in models.json as the table in bench/replay-data/zeroeval-models.ts has them, and every record costs its tokens at them', () => {
    const shipped = JSON.parse(readData('zeroeval/models.json')) as { id: string; price: Price; priceSource: string }[];
    expect(shipped.map(({ id, price, priceSource }) => ({ id, price, priceSource }))).toEqual(
      ZEROEVAL_MODELS.map(({ id, price, priceSource }) => ({ id, price, priceSource })),
    );
    const priceOf = new Map(shipped.map((m) => [m.id, m.price]));
    for (const file of ['zeroeval/gsm', 'zeroeval/math-l5', 'zeroeval/crux']) {
      const off = rowsOf(file).flatMap((row) =>
        Object.entries(row.records)
          .filter(([id, r]) => r.usd !== roundUsd(costUsd({ input: r.inputTokens, output: r.outputTokens }, priceOf.get(id)!)!))
          .map(([id]) => `${file} ${row.id} ${id}`),
      );
      expect(off).toEqual([]);
    }
  });
});

/** A user's JSONL, CSV and Parquet data through a field mapping; every unusable row named by its line. */
import { parquetWriteBuffer } from 'hyparquet-writer';
import { describe, expect, it } from 'vitest';
import { badRowsError, csvRows, jsonlRows, mapRows, parquetRows, parseFieldMap } from '../../../../../src/core/bench/datasets/index.ts';

const MAP = parseFieldMap('question=prompt,answer=gold,kind=type,choices=options,id=uid');
const OPTS = { defaultKind: 'exact' as const, dataset: 'mine' };

describe('parseFieldMap', () => {
  it('maps named fields and keeps the defaults for the rest', () => {
    expect(parseFieldMap('question=problem')).toEqual({ question: 'problem', answer: 'answer', kind: 'kind', choices: ['choices'], id: 'id' });
    expect(parseFieldMap('choices=A|B|C|D,answer=correct').choices).toEqual(['A', 'B', 'C', 'D']);
    expect(() => parseFieldMap('question')).toThrow(/field=column/);
    expect(() => parseFieldMap('prompt=q')).toThrow(/field one of question, answer, kind, choices, id/);
  });
});

describe('JSONL', () => {
  const text = [
    '{"prompt": "2+2?", "gold": 4, "type": "number", "uid": "a"}',
    '',
    '{"prompt": "Capital of France?", "gold": "B", "type": "mcq", "options": ["Lyon", "Paris", "Nice"], "uid": "b"}',
    '{"prompt": "broken", ',
    '{"prompt": "no answer", "type": "number", "uid": "c"}',
    '{"prompt": "Odd kind", "gold": "x", "type": "poem", "uid": "d"}',
    '[1, 2]',
    '{"prompt": "mcq without options", "gold": "A", "type": "mcq", "uid": "e"}',
    '{"prompt": "again", "gold": "1", "type": "number", "uid": "a"}',
    '{"prompt": "Say hi", "gold": "hi", "uid": "f"}',
  ].join('\n');

  it('maps good rows and names every bad one by its line', () => {
    const { tasks, bad } = mapRows(jsonlRows(text), MAP, OPTS);
    expect(tasks).toEqual([
      { question: '2+2?', answer: '4', kind: 'number', dataset: 'mine', itemId: 'a' },
      {
        question: 'Capital of France?\nA. Lyon\nB. Paris\nC. Nice',
        answer: 'B',
        kind: 'mcq',
        dataset: 'mine',
        itemId: 'b',
        choices: ['Lyon', 'Paris', 'Nice'],
      },
      { question: 'Say hi', answer: 'hi', kind: 'exact', dataset: 'mine', itemId: 'f' },
    ]);
    expect(bad.map((b) => b.line)).toEqual([4, 5, 6, 7, 8, 9]);
    expect(bad[0].reason).toMatch(/not valid JSON/);
    expect(bad[1].reason).toBe('no answer in column "gold"');
    expect(bad[2].reason).toMatch(/kind "poem" is not one of/);
    expect(bad[3].reason).toBe('expected a JSON object');
    expect(bad[4].reason).toMatch(/needs its options/);
    expect(bad[5].reason).toBe('id "a" was already used on line 1');
    expect(badRowsError('mine.jsonl', bad, 'line').message).toMatch(
      /^mine\.jsonl: 6 rows cannot be used: line 4: not valid JSON.*line 9: id "a" was already used on line 1\. .*--skip-bad/,
    );
  });
});

describe('a row without a kind', () => {
  it('takes the default kind, or without one the kind its answer suggests', () => {
    const rows = jsonlRows('{"question": "a", "answer": "1,200"}\n{"question": "b", "answer": "Paris"}\n{"question": "c", "answer": "-0.5", "kind": "math"}');
    expect(mapRows(rows, parseFieldMap(''), { dataset: 'd' }).tasks.map((t) => t.kind)).toEqual(['number', 'exact', 'math']);
    expect(mapRows(rows, parseFieldMap(''), { dataset: 'd', defaultKind: 'math' }).tasks.map((t) => t.kind)).toEqual(['math', 'math', 'math']);
  });
});

describe('CSV', () => {
  it('numbers rows by the line they start on, across quoted line breaks, and reads options from columns', () => {
    const text = 'q,ans,A,B,C\n"Which is a\nprime?",1,4,7,9\n"short row",0\n"What is 3?",2,one,two,three\n"empty answer",,x,y,z\n';
    const { tasks, bad } = mapRows(csvRows(text), parseFieldMap('question=q,answer=ans,choices=A|B|C'), { defaultKind: 'mcq', dataset: 'd' });
    // MMLU-style option indices become letters; ids default to the line.
    expect(tasks.map((t) => [t.itemId, t.answer, t.choices])).toEqual([
      ['2', 'B', ['4', '7', '9']],
      ['5', 'C', ['one', 'two', 'three']],
    ]);
    expect(bad).toEqual([
      { line: 4, reason: '2 fields where the header has 5' },
      { line: 6, reason: 'no answer in column "ans"' },
    ]);
  });
});

describe('Parquet', () => {
  it('reads a file written by a Parquet writer, mapping columns and reporting bad rows by row number', async () => {
    const buffer = parquetWriteBuffer({
      columnData: [
        { name: 'problem', data: ['1+1?', '2+3?', '', 'Pick one'], type: 'STRING' },
        { name: 'solution', data: ['2', '5', '7', '0'], type: 'STRING' },
        { name: 'level', data: ['number', 'number', 'number', 'mcq'], type: 'STRING' },
        { name: 'opts', data: [null, null, null, '["red", "blue"]'], type: 'STRING' },
        { name: 'n', data: [10, 11, 12, 13], type: 'INT32' },
      ],
    });
    const rows = await parquetRows(buffer);
    const { tasks, bad } = mapRows(rows, parseFieldMap('question=problem,answer=solution,kind=level,choices=opts,id=n'), OPTS);
    expect(tasks.map((t) => [t.itemId, t.question, t.answer, t.kind])).toEqual([
      ['10', '1+1?', '2', 'number'],
      ['11', '2+3?', '5', 'number'],
      ['13', 'Pick one\nA. red\nB. blue', 'A', 'mcq'],
    ]);
    expect(bad).toEqual([{ line: 3, reason: 'no question in column "problem"' }]);
  });

  it('says so when the bytes are not Parquet', async () => {
    await expect(parquetRows(new TextEncoder().encode('question,answer\n').buffer)).rejects.toThrow(/Not a Parquet file/);
  });
});

describe('rows that could never be graded', () => {
  it('are bad rows when a multiple-choice gold names none of the options', async () => {
    const jsonl = jsonlRows(
      [
        '{"question": "q1", "answer": "E", "kind": "mcq", "choices": ["a", "b", "c", "d"]}',
        '{"question": "q2", "answer": "d", "kind": "mcq", "choices": ["a", "b", "c", "d"]}',
        '{"question": "q3", "answer": "c", "choices": ["a", "b", "c", "d"]}',
        '{"question": "q4", "answer": 7, "kind": "mcq", "choices": []}',
      ].join('\n'),
    );
    const j = mapRows(jsonl, parseFieldMap(''), { dataset: 'd' });
    expect(j.tasks.map((t) => [t.itemId, t.answer, t.kind])).toEqual([
      ['2', 'd', 'mcq'],
      ['3', 'c', 'mcq'],
    ]);
    expect(j.bad).toEqual([
      { line: 1, reason: 'gold "E" is not one of the 4 options (a letter A-D, an index 0-3 or an option\'s text)' },
      { line: 4, reason: '"choices" must be a list of at least two options' },
    ]);
    // Empty option cells and a gold index past them.
    const csv = mapRows(csvRows('q,ans,A,B,C,D\nfirst,7,,,,\nsecond,3,w,x,y,z\n'), parseFieldMap('question=q,answer=ans,choices=A|B|C|D'), { dataset: 'd' });
    expect(csv.tasks.map((t) => [t.itemId, t.answer])).toEqual([['3', 'D']]);
    expect(csv.bad).toEqual([{ line: 2, reason: 'gold "7" is not one of the 4 options (a letter A-D, an index 0-3 or an option\'s text)' }]);
    const parquet = await parquetRows(
      parquetWriteBuffer({
        columnData: [
          { name: 'problem', data: ['Pick one', 'Pick again'], type: 'STRING' },
          { name: 'gold', data: [9, 1], type: 'INT32' },
          { name: 'opts', data: ['["red", "blue"]', '["red", "blue"]'], type: 'STRING' },
        ],
      }),
    );
    const p = mapRows(parquet, parseFieldMap('question=problem,answer=gold,choices=opts'), { dataset: 'd' });
    expect(p.tasks.map((t) => [t.itemId, t.answer, t.kind])).toEqual([['2', 'B', 'mcq']]);
    expect(p.bad).toEqual([{ line: 1, reason: 'gold "9" is not one of the 2 options (a letter A-B, an index 0-1 or an option\'s text)' }]);
  });

  it('letters options past D, and refuses more than there are letters', () => {
    const five = ['v', 'w', 'x', 'y', 'z'];
    const letters = [...'ABCDEFGHIJKLMNOPQRSTUVWXYZ'];
    const rows = jsonlRows(
      [
        { question: 'q', answer: 'E', choices: five },
        { question: 'r', answer: 'A', choices: [...letters, 'one more'] },
      ]
        .map((r) => JSON.stringify(r))
        .join('\n'),
    );
    const { tasks, bad } = mapRows(rows, parseFieldMap(''), { dataset: 'd' });
    expect(tasks.map((t) => [t.question, t.answer, t.kind])).toEqual([['q\nA. v\nB. w\nC. x\nD. y\nE. z', 'E', 'mcq']]);
    expect(bad).toEqual([{ line: 2, reason: '27 options, where at most 26 can be named by a letter' }]);
  });

  it('keeps a question that already lists its options (a task file Baton wrote, RouterBench prompts) as it is', () => {
    const listed = 'Which is a colour?\nA) red\nB) two';
    const rows = jsonlRows(
      [
        { question: listed, answer: 'A', choices: ['red', 'two'] },
        { question: 'Which is a colour?\nA. red\nB. two', answer: 'A', choices: ['red', 'two'] },
        { question: 'Which is a colour?\n(A) red\n(B) two', answer: 'A', choices: ['red', 'two'] },
        // Listed out of order, or other options: not these options' listing, so they are added.
        { question: 'Which is a colour?\nB) two\nA) red', answer: 'A', choices: ['red', 'two'] },
        { question: listed, answer: 'A', choices: ['red', 'blue'] },
      ]
        .map((r) => JSON.stringify(r))
        .join('\n'),
    );
    const { tasks } = mapRows(rows, parseFieldMap(''), { dataset: 'd' });
    expect(tasks.map((t) => t.question)).toEqual([
      listed,
      'Which is a colour?\nA. red\nB. two',
      'Which is a colour?\n(A) red\n(B) two',
      'Which is a colour?\nB) two\nA) red\nA. red\nB. two',
      `${listed}\nA. red\nB. blue`,
    ]);
  });

  it('reads an empty kind as no kind, options as mcq and a JSON number as a number', () => {
    const csv = csvRows('question,answer,kind\n"2+2?",4,\n"Name it",Paris, \n');
    expect(mapRows(csv, parseFieldMap(''), { dataset: 'd', defaultKind: 'math' }).tasks.map((t) => t.kind)).toEqual(['math', 'math']);
    expect(mapRows(csv, parseFieldMap(''), { dataset: 'd' }).tasks.map((t) => t.kind)).toEqual(['number', 'exact']);
    const jsonl = jsonlRows(
      ['{"question": "a", "answer": "x", "kind": ""}', '{"question": "b", "answer": "B", "choices": ["no", "yes"]}', '{"question": "c", "answer": 1e-7}'].join(
        '\n',
      ),
    );
    expect(mapRows(jsonl, parseFieldMap(''), { dataset: 'd' }).tasks.map((t) => [t.answer, t.kind])).toEqual([
      ['x', 'exact'],
      ['B', 'mcq'],
      ['1e-7', 'number'],
    ]);
    expect(mapRows(jsonl, parseFieldMap(''), { dataset: 'd', defaultKind: 'exact' }).tasks[0].kind).toBe('exact');
  });

  it('keeps every digit of JSONL integers past 2^53, also in ids, and leaves digits in strings alone', () => {
    const rows = jsonlRows(
      '{"question": "big \\"1\\" 99999999999999999999", "answer": 12345678901234567891, "id": -9007199254740993}\n{"question": "small", "answer": 9007199254740991}',
    );
    const { tasks, bad } = mapRows(rows, parseFieldMap(''), { dataset: 'd' });
    expect(bad).toEqual([]);
    expect(tasks.map((t) => [t.question, t.answer, t.kind, t.itemId])).toEqual([
      ['big "1" 99999999999999999999', '12345678901234567891', 'number', '-9007199254740993'],
      ['small', '9007199254740991', 'number', '2'],
    ]);
  });
});

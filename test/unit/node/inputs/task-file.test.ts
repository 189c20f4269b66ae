import { describe, expect, it } from 'vitest';
import { parseTaskFile, readBuiltInTaskSet } from '../../../../src/node/inputs/task-file.ts';

describe('parseTaskFile', () => {
  it('reads tasks one JSON object a line, blank lines skipped', () => {
    const text =
      '{"question":"2+3?","answer":"5","kind":"number"}\n\n{"question":"Sky?\\nA. red\\nB. blue","answer":"B","kind":"mcq","choices":["red","blue"],"itemId":"sky"}\n';
    expect(parseTaskFile(text, 'tasks.jsonl')).toEqual([
      { question: '2+3?', answer: '5', kind: 'number', itemId: '0' },
      { question: 'Sky?\nA. red\nB. blue', answer: 'B', kind: 'mcq', choices: ['red', 'blue'], itemId: 'sky' },
    ]);
  });

  it('names the line and field of a task that cannot be graded', () => {
    expect(() => parseTaskFile('{"question":"q","answer":"1","kind":"number"}\n{"question":"q","kind":"number"}', 't.jsonl')).toThrow(
      /t\.jsonl, line 2: "answer"/,
    );
    expect(() => parseTaskFile('{"question":"q","answer":"1","kind":"open"}', 't.jsonl')).toThrow(/line 1: "kind" must be one of/);
    expect(() => parseTaskFile('{"question":" ","answer":"1","kind":"number"}', 't.jsonl')).toThrow(/line 1: "question"/);
  });

  it('takes code tasks whose answer is the tests as JSON, and names the line of one whose tests do not parse', () => {
    const gold = JSON.stringify({ tests: [{ input: '2\n', output: '4\n' }] });
    expect(parseTaskFile(JSON.stringify({ question: 'Double it.', answer: gold, kind: 'code' }), 't.jsonl')[0]).toMatchObject({ kind: 'code', answer: gold });
    expect(() =>
      parseTaskFile(`{"question":"q","answer":"1","kind":"number"}\n${JSON.stringify({ question: 'q', answer: 'print(1)', kind: 'code' })}`, 't.jsonl'),
    ).toThrow(/t\.jsonl, line 2: .*JSON/);
  });
});

describe('readBuiltInTaskSet', () => {
  it('reads MMLU and GSM8K from data/ and splits 150 of each 80/20 by the seed', async () => {
    const { train, heldOut } = await readBuiltInTaskSet('experts', 0);
    expect(train).toHaveLength(240);
    expect(heldOut).toHaveLength(60);
    expect(new Set(train.map((t) => t.kind))).toEqual(new Set(['mcq', 'gsm8k']));
    expect(heldOut.filter((t) => t.kind === 'gsm8k')).toHaveLength(30);
  });
});

import { describe, expect, it } from 'vitest';
import { parseCodeGold } from '../../../../../src/core/reward/index.ts';

describe('parseCodeGold', () => {
  it("reads HumanEval's shape, with or without its prompt", () => {
    expect(parseCodeGold('{"test": "def check(candidate): pass", "entry_point": "f"}')).toEqual({
      kind: 'function',
      test: 'def check(candidate): pass',
      entryPoint: 'f',
    });
    expect(parseCodeGold('{"test": "t", "entry_point": "f", "prompt": "def f():\\n"}')).toEqual({
      kind: 'function',
      test: 't',
      entryPoint: 'f',
      prompt: 'def f():\n',
    });
  });

  it('reads stdin/stdout tests', () => {
    expect(parseCodeGold('{"tests": [{"input": "1\\n", "output": "2\\n"}]}')).toEqual({ kind: 'stdio', tests: [{ input: '1\n', output: '2\n' }] });
  });

  it.each([
    ['print(1)', 'not JSON'],
    ['[1]', 'not a JSON object'],
    ['{"tests": []}', '"tests" must be a non-empty list'],
    ['{"tests": [{"input": "1"}]}', 'test 1 needs string "input" and "output"'],
    ['{"test": "t"}', '"test" and "entry_point" (a Python name) are required'],
    ['{"test": "t", "entry_point": "f(); import os"}', '"test" and "entry_point" (a Python name) are required'],
  ])('refuses %s: %s', (gold, why) => {
    expect(() => parseCodeGold(gold)).toThrow(expect.objectContaining({ code: 'data/invalid', message: expect.stringContaining(why) }));
  });
});

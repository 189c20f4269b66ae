import { describe, expect, it } from 'vitest';
import { functionTestProgram, sameOutput } from '../../../../../src/core/reward/index.ts';

describe('sameOutput', () => {
  it('ignores trailing whitespace on each line, trailing blank lines and CRLF', () => {
    expect(sameOutput('1 2\n3\n', '1 2  \r\n3\n\n\n')).toBe(true);
    expect(sameOutput('3', '3\n')).toBe(true);
  });

  it('keeps leading whitespace, inner blank lines and every other difference', () => {
    expect(sameOutput('3', ' 3')).toBe(false);
    expect(sameOutput('1\n2', '1\n\n2')).toBe(false);
    expect(sameOutput('1\n2', '1')).toBe(false);
    expect(sameOutput('', '0')).toBe(false);
  });
});

describe('functionTestProgram', () => {
  it('runs the prompt, the answer, the tests, then check(entry point)', () => {
    const program = functionTestProgram(
      { kind: 'function', prompt: 'import math\ndef f(x):\n', test: 'def check(c):\n    assert c(1)', entryPoint: 'f' },
      '    return x',
    );
    expect(program).toBe('import math\ndef f(x):\n\n\n    return x\n\ndef check(c):\n    assert c(1)\n\ncheck(f)\n');
  });
});

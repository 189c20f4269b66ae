import { execFile } from 'node:child_process';
import { resolve } from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { gradeCommand } from '../../../../src/node/commands/grade.ts';
import { CliError, type CliIo } from '../../../../src/node/cli/io.ts';

function fakeIo(stdin = '') {
  const out: string[] = [];
  const err: string[] = [];
  const io: CliIo = {
    stdout: (t) => void out.push(t),
    stderr: (t) => void err.push(t),
    readStdin: async () => stdin,
    env: {},
    cwd: process.cwd(),
  };
  return { io, out, err };
}

async function grade(argv: string[], stdin = '') {
  const { io, out } = fakeIo(stdin);
  const code = await gradeCommand(argv, io);
  expect(out).toHaveLength(1);
  expect(out[0].endsWith('\n')).toBe(true);
  return { code, result: JSON.parse(out[0]) as { correct: boolean; extracted: string | null; gold: string } };
}

async function usageError(argv: string[]): Promise<CliError> {
  const error = await gradeCommand(argv, fakeIo().io).catch((e: unknown) => e);
  expect(error).toBeInstanceOf(CliError);
  expect((error as CliError).exitCode).toBe(2);
  return error as CliError;
}

describe('baton grade (in-process)', () => {
  it('grades --response and prints one JSON line; exit 0 when wrong too', async () => {
    expect(await grade(['--kind', 'math', '--gold', '\\frac{1}{2}', '--response', 'so <answer>0.5</answer>'])).toEqual({
      code: 0,
      result: { correct: true, extracted: '0.5', gold: '\\frac{1}{2}' },
    });
    expect(await grade(['--kind', 'math', '--gold', '2', '--response', '\\boxed{1/2}'])).toEqual({
      code: 0,
      result: { correct: false, extracted: '1/2', gold: '2' },
    });
  });

  it('takes flag values that start with a dash, as negative answers do', async () => {
    expect(await grade(['--kind', 'math', '--gold', '-\\frac{1}{2}', '--response', '-0.5'])).toEqual({
      code: 0,
      result: { correct: true, extracted: '-0.5', gold: '-\\frac{1}{2}' },
    });
    expect((await grade(['--kind', 'number', '--gold', '-3', '--response', '-4'])).result.correct).toBe(false);
  });

  it('reads the response from stdin when --response is absent', async () => {
    const { result } = await grade(['--kind', 'gsm8k', '--gold', 'So 9*2=18\n#### 18'], 'She makes $18.\n#### 18\n');
    expect(result).toEqual({ correct: true, extracted: '18', gold: '18' });
  });

  it('reports a missing answer as extracted null', async () => {
    expect((await grade(['--kind', 'number', '--gold', '7', '--response', 'no idea'])).result).toEqual({ correct: false, extracted: null, gold: '7' });
  });

  it('mcq: letters, and option text with --choice', async () => {
    expect((await grade(['--kind', 'mcq', '--gold', 'C', '--response', 'The answer is (C).'])).result.correct).toBe(true);
    const withChoices = ['--kind', 'mcq', '--gold', 'B', '--choice', 'London', '--choice', 'Paris', '--response', '<answer>Paris</answer>'];
    expect((await grade(withChoices)).result).toEqual({ correct: true, extracted: 'B', gold: 'B' });
  });

  it('exact: case and spacing do not matter', async () => {
    expect((await grade(['--kind', 'exact', '--gold', 'New York', '--response', '<answer>new  york</answer>'])).result.correct).toBe(true);
  });

  it('rejects bad flags with a usage error that names the problem', async () => {
    expect((await usageError(['--gold', '1', '--response', '1'])).message).toMatch(/--kind is required/);
    expect((await usageError(['--kind', 'poetry', '--gold', '1'])).message).toMatch(/unknown kind "poetry"/);
    expect((await usageError(['--kind', 'open', '--gold', '1'])).message).toMatch(/not graded by this command/);
    expect((await usageError(['--kind', 'math', '--gold', '1', '--timeout', '2'])).message).toMatch(/--kind code only/);
    expect((await usageError(['--kind', 'code', '--gold', '{"tests": []}', '--timeout', '0'])).message).toMatch(/--timeout must be a positive number/);
    expect((await usageError(['--kind', 'math', '--response', '1'])).message).toMatch(/--gold is required/);
    expect((await usageError(['--kind', 'math', '--gold', '1', '--choice', 'x'])).message).toMatch(/mcq only/);
    expect((await usageError(['--kind', 'math', '--gold', '1', '--bogus'])).message).toMatch(/bogus/);
  });

  it('code: runs the response against HumanEval-shaped tests in the sandbox and says why it failed', { timeout: 60_000 }, async () => {
    const gold = JSON.stringify({ test: 'def check(candidate):\n    assert candidate([3, 1, 2]) == [1, 2, 3]\n', entry_point: 'sort_list' });
    const { code, result } = await grade(['--kind', 'code', '--gold', gold], '```python\ndef sort_list(xs):\n    return xs\n```');
    expect(code).toBe(0);
    expect(result).toEqual({
      correct: false,
      reason: 'a test failed: AssertionError at `assert candidate([3, 1, 2]) == [1, 2, 3]`',
      failure: 'exception',
      extracted: 'def sort_list(xs):\n    return xs',
    });
  });

  it('code: refuses a gold of neither shape before running anything', async () => {
    const error = await gradeCommand(['--kind', 'code', '--gold', '{"tests": []}', '--response', 'print(1)'], fakeIo().io).catch((e: unknown) => e);
    expect(error).toMatchObject({ code: 'data/invalid', message: expect.stringMatching(/"tests" must be a non-empty list/) });
  });

  it('prints usage for --help', async () => {
    const { io, out } = fakeIo();
    expect(await gradeCommand(['--help'], io)).toBe(0);
    expect(out.join('')).toMatch(/usage: baton grade --kind/);
  });
});

describe('baton grade (as a process)', () => {
  const run = promisify(execFile);
  const bin = resolve(process.cwd(), 'bin/baton.js');

  // Two cold starts of tsx on shared cores: give them room.
  it('prints the JSON line on stdout and exits 0; a bad kind exits 2 with one line on stderr', { timeout: 60_000 }, async () => {
    const ok = await run('node', [bin, 'grade', '--kind', 'math', '--gold', '\\sqrt{8}', '--response', '<answer>2\\sqrt2</answer>']);
    expect(JSON.parse(ok.stdout)).toEqual({ correct: true, extracted: '2\\sqrt2', gold: '\\sqrt{8}' });
    const bad = await run('node', [bin, 'grade', '--kind', 'poetry', '--gold', '1']).catch((e: { code: number; stderr: string }) => e);
    expect(bad).toMatchObject({ code: 2 });
    expect((bad as { stderr: string }).stderr).toMatch(/^baton grade: --kind: unknown kind "poetry"/);
  });

  it('--kind code with stdin/stdout tests: the test a program failed (here by looping past --timeout)', { timeout: 90_000 }, async () => {
    const gold = JSON.stringify({
      tests: [
        { input: '2 3\n', output: '5\n' },
        { input: '10 -4\n', output: '6\n' },
      ],
    });
    const loop = await run('node', [
      bin,
      'grade',
      '--kind',
      'code',
      '--gold',
      gold,
      '--timeout',
      '1',
      '--response',
      'a, b = map(int, input().split())\nwhile b < 0: pass\nprint(a + b)',
    ]);
    expect(JSON.parse(loop.stdout)).toMatchObject({ correct: false, failure: 'timeout', test: 2, reason: 'test 2 of 2: Killed after the time limit of 1 s.' });
  });
});

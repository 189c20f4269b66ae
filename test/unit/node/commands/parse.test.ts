import { execFile } from 'node:child_process';
import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { CliError, type CliIo } from '../../../../src/node/cli/io.ts';
import { parseCommand } from '../../../../src/node/commands/parse.ts';

function fakeIo(stdin: string) {
  const out: string[] = [];
  const err: string[] = [];
  const io: CliIo = {
    stdout: (t) => out.push(t),
    stderr: (t) => err.push(t),
    readStdin: async () => stdin,
    env: {},
    cwd: process.cwd(),
  };
  return { io, out, err };
}

const GOOD = 'Plan: solve, then check.\nmodel_id = [1, 0]\nsubtasks = ["Solve it", "Check it"]\naccess_list = [[], ["all"]]';

describe('baton parse (in-process)', () => {
  it('prints the workflow as one JSON line and exits 0', async () => {
    const { io, out } = fakeIo(GOOD);
    expect(await parseCommand(['--workers', '2'], io)).toBe(0);
    expect(out.join('')).toBe(
      '{"ok":true,"workflow":{"steps":[{"worker":1,"subtask":"Solve it","access":[]},{"worker":0,"subtask":"Check it","access":"all"}]}}\n',
    );
  });

  it('prints the error as one JSON line and exits 1', async () => {
    const { io, out } = fakeIo(GOOD);
    expect(await parseCommand(['--workers', '1'], io)).toBe(1);
    expect(JSON.parse(out.join(''))).toEqual({
      ok: false,
      error: 'model_id[0] is 1, out of range: model ids are integers from 0 to 0 (the pool has 1 model)',
    });
  });

  it('passes --max-steps, --access and --recursion to the parser', async () => {
    const three = 'model_id = [0, 0, 0]\nsubtasks = ["a", "b", "c"]\naccess_list = [[], [0], [0, 1]]';
    const positional = fakeIo(three);
    expect(await parseCommand([], positional.io)).toBe(0);
    expect(JSON.parse(positional.out[0]).workflow.steps[2].access).toEqual([0, 1]);
    const binary = fakeIo(three);
    expect(await parseCommand(['--access', 'binary'], binary.io)).toBe(1);
    const short = fakeIo(three);
    expect(await parseCommand(['--max-steps', '2'], short.io)).toBe(1);
    expect(JSON.parse(short.out[0]).error).toBe('too many steps: 3, but at most 2 are allowed; merge or drop steps');
    const keep = fakeIo('model_id = []\nsubtasks = []\naccess_list = []');
    expect(await parseCommand(['--recursion'], keep.io)).toBe(0);
    expect(keep.out[0]).toBe('{"ok":true,"keep":true,"workflow":{"steps":[]}}\n');
  });

  it('reads the completion from a file when one is given, and names a file it cannot read', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'baton-parse-'));
    await writeFile(join(dir, 'c.txt'), GOOD);
    const { io, out } = fakeIo('not this');
    expect(await parseCommand(['--workers', '2', join(dir, 'c.txt')], io)).toBe(0);
    expect(JSON.parse(out.join('')).workflow.steps).toHaveLength(2);
    const missing = await parseCommand([join(dir, 'nope.txt')], fakeIo('').io).catch((e: unknown) => e);
    expect(missing).toBeInstanceOf(CliError);
    expect((missing as CliError).message).toMatch(/^cannot read .*nope\.txt: /);
    expect((missing as CliError).exitCode).toBe(2);
  });

  it('prints usage for --help', async () => {
    const { io, out } = fakeIo('');
    expect(await parseCommand(['--help'], io)).toBe(0);
    expect(out.join('')).toMatch(/^usage: baton parse \[--workers N\]/);
  });

  it('rejects bad flag values with a CliError', async () => {
    for (const argv of [['--workers', 'x'], ['--workers', '0'], ['--max-steps', '0'], ['--access', 'partial'], ['--nope']]) {
      await expect(parseCommand(argv, fakeIo(GOOD).io)).rejects.toBeInstanceOf(CliError);
    }
    await expect(parseCommand(['--access', 'partial'], fakeIo(GOOD).io)).rejects.toThrow('--access must be binary or positional, got "partial"');
  });
});

describe('baton parse (real binary)', () => {
  it('reads stdin and prints the workflow', async () => {
    const bin = fileURLToPath(new URL('../../../../bin/baton.js', import.meta.url));
    const { code, stdout } = await new Promise<{ code: number; stdout: string }>((resolve, reject) => {
      const child = execFile(process.execPath, [bin, 'parse', '--workers', '3'], (error, stdout) => {
        if (error && typeof error.code !== 'number') reject(error);
        else resolve({ code: error ? (error.code as number) : 0, stdout });
      });
      child.stdin!.end(GOOD);
    });
    expect(code).toBe(0);
    expect(JSON.parse(stdout)).toEqual({
      ok: true,
      workflow: {
        steps: [
          { worker: 1, subtask: 'Solve it', access: [] },
          { worker: 0, subtask: 'Check it', access: 'all' },
        ],
      },
    });
  });
});

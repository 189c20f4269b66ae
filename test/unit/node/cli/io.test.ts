import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, expect, test } from 'vitest';
import { CliError, readTextFlag } from '../../../../src/node/cli/io.ts';
import { recordingIo } from '../../../support/cli-io.ts';

const dir = await mkdtemp(join(tmpdir(), 'baton-io-'));
afterAll(() => rm(dir, { recursive: true, force: true }));

test('a file a flag names is read relative to the working directory', async () => {
  await writeFile(join(dir, 'batch.json'), '{"groups":[]}');
  expect(await readTextFlag(recordingIo(dir), 'batch', 'batch.json')).toBe('{"groups":[]}');
});

test('a file that cannot be read is a usage error naming the flag, the path and why', async () => {
  const error = await readTextFlag(recordingIo(dir), 'batch', 'missing.json').catch((e: unknown) => e);
  expect(error).toBeInstanceOf(CliError);
  expect((error as CliError).exitCode).toBe(2);
  expect((error as CliError).message).toBe(`--batch: cannot read ${join(dir, 'missing.json')} (ENOENT).`);
});

test("'-' is standard input only where the flag allows it", async () => {
  expect(await readTextFlag(recordingIo(dir, '[1, 2]'), 'ids', '-', { stdin: true })).toBe('[1, 2]');
  await expect(readTextFlag(recordingIo(dir, '[1, 2]'), 'batch', '-')).rejects.toThrow(`--batch: cannot read ${join(dir, '-')} (ENOENT).`);
});

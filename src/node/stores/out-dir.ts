import { mkdir, readdir } from 'node:fs/promises';
import { resolve } from 'node:path';
import { CliError, type CliIo } from '../cli/index.ts';

async function isEmptyOrMissing(dir: string): Promise<boolean> {
  try {
    return (await readdir(dir)).length === 0;
  } catch {
    return true;
  }
}

/** --out as an absolute directory, made if missing: never an input directory, never one holding files (nothing is overwritten). */
export async function outputDir(io: CliIo, out: string | undefined, inputs: string[]): Promise<string> {
  if (!out) throw new CliError('--out DIR is required', 2);
  const dir = resolve(io.cwd, out);
  if (inputs.includes(dir)) throw new CliError(`--out ${out} is an input directory; write to another one`, 2);
  if (!(await isEmptyOrMissing(dir))) throw new CliError(`--out ${out} is not empty; choose a new directory so nothing is overwritten`, 2);
  await mkdir(dir, { recursive: true });
  return dir;
}

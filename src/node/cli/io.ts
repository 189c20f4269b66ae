import { readFile } from 'node:fs/promises';
import { resolve } from 'node:path';

/** What a command touches of the outside world, so tests can run commands in-process. */
export interface CliIo {
  stdout(text: string): void;
  stderr(text: string): void;
  readStdin(): Promise<string>;
  env: Record<string, string | undefined>;
  cwd: string;
}

/** A usage or input error: printed as one line on stderr, exit status `exitCode`. */
export class CliError extends Error {
  constructor(
    message: string,
    readonly exitCode = 1,
  ) {
    super(message);
    this.name = 'CliError';
  }
}

export function processIo(): CliIo {
  return {
    stdout: (t) => process.stdout.write(t),
    stderr: (t) => process.stderr.write(t),
    readStdin: async () => {
      if (process.stdin.isTTY) return '';
      const chunks: Buffer[] = [];
      for await (const c of process.stdin) chunks.push(c as Buffer);
      return Buffer.concat(chunks).toString('utf8');
    },
    env: process.env,
    cwd: process.cwd(),
  };
}

/**
 * The text of the file a flag names (relative to io.cwd; '-' is standard input where `stdin` allows
 * it), or a CliError saying which flag, which file and why it could not be read.
 */
export async function readTextFlag(io: CliIo, flag: string, file: string, options: { stdin?: boolean } = {}): Promise<string> {
  if (options.stdin && file === '-') return io.readStdin();
  const path = resolve(io.cwd, file);
  try {
    return await readFile(path, 'utf8');
  } catch (e) {
    throw new CliError(`--${flag}: cannot read ${path} (${(e as NodeJS.ErrnoException).code ?? (e as Error).message}).`, 2);
  }
}

import { readFile } from 'node:fs/promises';
import { resolve } from 'node:path';
import { parseArgs, type ParseArgsConfig } from 'node:util';

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

type Options = NonNullable<ParseArgsConfig['options']>;

/**
 * `--flag -1` as `--flag=-1` for a flag that takes a value: parseArgs reads a value starting with '-' as
 * an "ambiguous" option, and the flag's own check then says what is wrong with the number.
 */
function joinNegativeValues(argv: string[], options: Options): string[] {
  const args: string[] = [];
  for (let i = 0; i < argv.length; i++) {
    if (argv[i] === '--') return [...args, ...argv.slice(i)];
    const name = argv[i].startsWith('--') ? argv[i].slice(2) : undefined;
    if (name !== undefined && options[name]?.type === 'string' && /^-\.?\d/.test(argv[i + 1] ?? '')) args.push(`${argv[i]}=${argv[++i]}`);
    else args.push(argv[i]);
  }
  return args;
}

/** Strict flag parsing; an unknown or malformed flag is a CliError naming it. */
export function parseFlags<O extends Options>(argv: string[], options: O, allowPositionals = false) {
  try {
    return parseArgs({ args: joinNegativeValues(argv, options), options, strict: true, allowPositionals });
  } catch (e) {
    throw new CliError((e as Error).message, 2);
  }
}

/** A numeric flag value, or a CliError naming the flag. */
export function intFlag(name: string, value: string | undefined, fallback?: number): number | undefined {
  if (value === undefined) return fallback;
  const n = Number(value);
  if (!Number.isInteger(n)) throw new CliError(`--${name} must be an integer, got "${value}"`, 2);
  return n;
}

export function numberFlag(name: string, value: string | undefined, fallback?: number): number | undefined {
  if (value === undefined) return fallback;
  const n = Number(value);
  if (!Number.isFinite(n)) throw new CliError(`--${name} must be a number, got "${value}"`, 2);
  return n;
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

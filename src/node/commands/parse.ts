/**
 * `baton parse`: reads a Conductor completion (a file, or stdin) and prints one JSON line, the parsed workflow or
 * the parse error. Exit 0 when it parses, 1 when it does not, 2 on a usage error.
 */
import { readFile } from 'node:fs/promises';
import { resolve } from 'node:path';
import { DEFAULT_MAX_STEPS, parseWorkflow } from '../../core/workflow/index.ts';
import { atLeast, choice, CliError, int, parseFlags, printHelp, toggle, type CliIo } from '../cli/index.ts';

const FLAGS = {
  workers: int({ arg: 'N', help: 'pool size: model ids must be below N (default: no upper bound)', check: atLeast(1) }),
  'max-steps': int({ arg: 'K', help: 'most steps allowed', default: DEFAULT_MAX_STEPS, check: atLeast(1) }),
  access: choice(['binary', 'positional'], { arg: 'MODE', help: 'binary ("all" or [] only) or positional (also earlier step indices)', default: 'positional' }),
  recursion: toggle({ help: 'a recursion round: three empty lists mean "keep the previous answer"' }),
};

const HELP = {
  usage: `usage: baton parse [--workers N] [--max-steps K] [--access binary|positional] [--recursion] [FILE]

Reads a Conductor completion from FILE (or stdin when FILE is absent or -) and prints one JSON line:
  {"ok":true,"workflow":{"steps":[{"worker":0,"subtask":"...","access":"all"}]}}
  {"ok":false,"error":"..."}
access is "all" or a list of earlier step indices. Exit status 0 if it parses, 1 if not.
`,
  flags: FLAGS,
};

export async function parseCommand(argv: string[], io: CliIo): Promise<number> {
  const args = parseFlags(argv, FLAGS, { positionals: true });
  if (args.help) return printHelp(io, HELP);
  const { values, positionals } = args;
  if (positionals.length > 1) throw new CliError(`give one completion file, or none to read stdin; got ${positionals.length}`, 2);
  const result = parseWorkflow(await readCompletion(positionals[0], io), {
    workers: values.workers,
    maxSteps: values['max-steps'],
    access: values.access,
    recursion: values.recursion,
  });
  io.stdout(`${JSON.stringify(result)}\n`);
  return result.ok ? 0 : 1;
}

async function readCompletion(file: string | undefined, io: CliIo): Promise<string> {
  if (file === undefined || file === '-') return io.readStdin();
  try {
    return await readFile(resolve(io.cwd, file), 'utf8');
  } catch (e) {
    throw new CliError(`cannot read ${file}: ${(e as Error).message}`, 2);
  }
}

/**
 * `baton parse`: reads a Conductor completion (a file, or stdin) and prints one JSON line, the parsed workflow or
 * the parse error. Exit 0 when it parses, 1 when it does not, 2 on a usage error.
 */
import { readFile } from 'node:fs/promises';
import { resolve } from 'node:path';
import { DEFAULT_MAX_STEPS, parseWorkflow, type AccessMode } from '../../core/workflow/index.ts';
import { CliError, intFlag, parseFlags, type CliIo } from '../io.ts';

const USAGE = `usage: baton parse [--workers N] [--max-steps K] [--access binary|positional] [--recursion] [FILE]

Reads a Conductor completion from FILE (or stdin when FILE is absent or -) and prints one JSON line:
  {"ok":true,"workflow":{"steps":[{"worker":0,"subtask":"...","access":"all"}]}}
  {"ok":false,"error":"..."}
access is "all" or a list of earlier step indices. Exit status 0 if it parses, 1 if not.

options:
  --workers N        pool size: model ids must be below N (default: no upper bound)
  --max-steps K      most steps allowed (default ${DEFAULT_MAX_STEPS})
  --access MODE      binary ("all" or [] only) or positional (also earlier step indices; default)
  --recursion        a recursion round: three empty lists mean "keep the previous answer"
`;

export async function parseCommand(argv: string[], io: CliIo): Promise<number> {
  const { values, positionals } = parseFlags(
    argv,
    {
      workers: { type: 'string' },
      'max-steps': { type: 'string' },
      access: { type: 'string' },
      recursion: { type: 'boolean' },
      help: { type: 'boolean', short: 'h' },
    },
    true,
  );
  if (values.help) {
    io.stdout(USAGE);
    return 0;
  }
  const workers = intFlag('workers', values.workers);
  if (workers !== undefined && workers < 1) throw new CliError(`--workers must be at least 1, got ${workers}`, 2);
  const maxSteps = intFlag('max-steps', values['max-steps'], DEFAULT_MAX_STEPS)!;
  if (maxSteps < 1) throw new CliError(`--max-steps must be at least 1, got ${maxSteps}`, 2);
  const access = values.access ?? 'positional';
  if (access !== 'binary' && access !== 'positional') {
    throw new CliError(`--access must be binary or positional, got "${access}"`, 2);
  }
  if (positionals.length > 1) throw new CliError(`give one completion file, or none to read stdin; got ${positionals.length}`, 2);
  const result = parseWorkflow(await readCompletion(positionals[0], io), {
    workers,
    maxSteps,
    access: access as AccessMode,
    recursion: values.recursion ?? false,
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

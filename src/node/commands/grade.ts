import { gradeAnswer } from '../../core/reward/index.ts';
import { TASK_KINDS, type TaskKind } from '../../core/task.ts';
import { CliError, parseFlags, type CliIo } from '../io.ts';

const GRADED_KINDS: TaskKind[] = ['math', 'mcq', 'number', 'gsm8k', 'exact'];

const USAGE = `usage: baton grade --kind <${GRADED_KINDS.join('|')}> --gold <answer> [--response <text>] [--choice <text> ...]

Grades one response (from --response, else stdin) against a gold answer and prints one JSON line
{"correct": bool, "extracted": string|null, "gold": string}. Exit status 0 whether or not it is correct.
  --choice   mcq only: the option texts in order A, B, C, ... (repeat the flag), so option text counts
`;

const VALUE_FLAGS = ['--kind', '--gold', '--response', '--choice'];

/**
 * `--gold -1` -> `--gold=-1`: parseArgs refuses a value that starts with a dash as ambiguous, but
 * answers are often negative (`-1`, `-\frac{1}{2}`), so each value flag is joined to the word after it.
 */
function joinFlagValues(argv: string[]): string[] {
  const out: string[] = [];
  for (let i = 0; i < argv.length; i++) {
    if (VALUE_FLAGS.includes(argv[i]) && i + 1 < argv.length) out.push(`${argv[i]}=${argv[++i]}`);
    else out.push(argv[i]);
  }
  return out;
}

export async function gradeCommand(argv: string[], io: CliIo): Promise<number> {
  const { values } = parseFlags(joinFlagValues(argv), {
    kind: { type: 'string' },
    gold: { type: 'string' },
    response: { type: 'string' },
    choice: { type: 'string', multiple: true },
    help: { type: 'boolean', short: 'h' },
  });
  if (values.help) {
    io.stdout(USAGE);
    return 0;
  }
  const kind = values.kind as TaskKind | undefined;
  if (kind === undefined) throw new CliError(`--kind is required (one of ${GRADED_KINDS.join(', ')})`, 2);
  if (!GRADED_KINDS.includes(kind)) {
    const why = TASK_KINDS.includes(kind) ? `kind "${kind}" is not graded by this command` : `unknown kind "${kind}"`;
    throw new CliError(`--kind: ${why}; use one of ${GRADED_KINDS.join(', ')}`, 2);
  }
  if (values.gold === undefined || values.gold.trim() === '') throw new CliError('--gold is required: the correct answer', 2);
  if (values.choice && kind !== 'mcq') throw new CliError('--choice applies to --kind mcq only', 2);
  const response = values.response ?? (await io.readStdin());
  const result = gradeAnswer(response, { kind, answer: values.gold, choices: values.choice });
  io.stdout(`${JSON.stringify(result)}\n`);
  return 0;
}

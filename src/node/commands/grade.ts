import { gradeAnswer, gradeCode } from '../../core/reward/index.ts';
import { TASK_KINDS, type TaskKind } from '../../core/task.ts';
import { CliError, parseFlags, type CliIo } from '../io.ts';
import { createNodeCodeRunner } from '../node-code-runner.ts';

const GRADED_KINDS: TaskKind[] = ['math', 'mcq', 'number', 'gsm8k', 'exact', 'code'];

const USAGE = `usage: baton grade --kind <${GRADED_KINDS.join('|')}> --gold <answer> [--response <text>] [--choice <text> ...]
                   [--timeout <seconds>] [--memory <MiB>]

Grades one response (from --response, else stdin) against a gold answer and prints one JSON line
{"correct": bool, "extracted": string|null, "gold": string}. Exit status 0 whether or not it is correct.
  --choice   mcq only: the option texts in order A, B, C, ... (repeat the flag), so option text counts

--kind code runs the response's Python (its last python code block, or all of it) in a sandbox and prints
{"correct": bool, "reason": string, "failure"?: string, "test"?: number, "extracted": code|null}. --gold is
  {"test": "def check(candidate): ...", "entry_point": "name", "prompt"?: "..."}   (HumanEval)
  {"tests": [{"input": "...", "output": "..."}, ...]}                              (stdin/stdout)
  --timeout  seconds per program run (default 10); past it the run is killed
  --memory   Python's memory limit in MiB (default 512)
`;

const VALUE_FLAGS = ['--kind', '--gold', '--response', '--choice', '--timeout', '--memory'];

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
    timeout: { type: 'string' },
    memory: { type: 'string' },
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
  if ((values.timeout !== undefined || values.memory !== undefined) && kind !== 'code') throw new CliError('--timeout and --memory apply to --kind code only', 2);
  const response = values.response ?? (await io.readStdin());
  const result = kind === 'code' ? await gradeCodeResponse(response, values.gold, values) : gradeAnswer(response, { kind, answer: values.gold, choices: values.choice });
  io.stdout(`${JSON.stringify(result)}\n`);
  return 0;
}

function positive(flag: string, value: string | undefined): number | undefined {
  if (value === undefined) return undefined;
  const n = Number(value);
  if (!Number.isFinite(n) || n <= 0) throw new CliError(`${flag} must be a positive number, got "${value}"`, 2);
  return n;
}

async function gradeCodeResponse(response: string, gold: string, flags: { timeout?: string; memory?: string }) {
  const timeout = positive('--timeout', flags.timeout);
  const memoryMb = positive('--memory', flags.memory);
  const runner = createNodeCodeRunner(memoryMb ? { memoryMb } : {});
  try {
    const { correct, reason, failure, test, extracted } = await gradeCode(response, gold, runner, timeout ? { timeoutMs: timeout * 1000 } : {});
    return { correct, reason, ...(failure ? { failure } : {}), ...(test ? { test } : {}), extracted };
  } finally {
    await runner.close();
  }
}

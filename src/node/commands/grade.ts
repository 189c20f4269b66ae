import { gradeAnswer, gradeCode } from '../../core/reward/index.ts';
import { TASK_KINDS, type TaskKind } from '../../core/task.ts';
import { CliError, flag, parseFlags, printHelp, text, texts, type CliIo } from '../cli/index.ts';
import { createNodeCodeRunner } from '../sandbox/index.ts';

const GRADED_KINDS: TaskKind[] = ['math', 'mcq', 'number', 'gsm8k', 'exact', 'literal', 'code'];

function gradedKind(kind: string): TaskKind {
  if (GRADED_KINDS.includes(kind as TaskKind)) return kind as TaskKind;
  const why = TASK_KINDS.includes(kind as TaskKind) ? `kind "${kind}" is not graded by this command` : `unknown kind "${kind}"`;
  throw new CliError(`--kind: ${why}; use one of ${GRADED_KINDS.join(', ')}`, 2);
}

function positiveNumber(value: string, name: string): number {
  const n = Number(value);
  if (!Number.isFinite(n) || n <= 0) throw new CliError(`--${name} must be a positive number, got "${value}"`, 2);
  return n;
}

// Every value is the word after its flag, even one starting with a dash: answers are often negative (`-1`, `-\frac{1}{2}`).
const FLAGS = {
  kind: flag({ arg: 'K', help: GRADED_KINDS.join(' | '), read: gradedKind, dashValue: true }),
  gold: text({ arg: 'A', help: 'the correct answer (for --kind code, the tests as JSON, as above)', dashValue: true }),
  response: text({ arg: 'TEXT', help: 'the response to grade (default: stdin)', dashValue: true }),
  choice: texts({ arg: 'TEXT', help: 'mcq only: the option texts in order A, B, C, ... (repeat the flag), so option text counts', dashValue: true }),
  timeout: flag({ arg: 'S', help: 'code only: seconds per program run (default 10); past it the run is killed', read: positiveNumber, dashValue: true }),
  memory: flag({ arg: 'MIB', help: "code only: Python's memory limit in MiB (default 512)", read: positiveNumber, dashValue: true }),
};

const HELP = {
  usage: `usage: baton grade --kind <${GRADED_KINDS.join('|')}> --gold <answer> [--response <text>] [--choice <text> ...]
                   [--timeout <seconds>] [--memory <MiB>]

Grades one response (from --response, else stdin) against a gold answer and prints one JSON line
{"correct": bool, "extracted": string|null, "gold": string}. Exit status 0 whether or not it is correct.

--kind code runs the response's Python (its last python code block, or all of it) in a sandbox and prints
{"correct": bool, "reason": string, "failure"?: string, "test"?: number, "extracted": code|null}. --gold is
  {"test": "def check(candidate): ...", "entry_point": "name", "prompt"?: "..."}   (HumanEval)
  {"tests": [{"input": "...", "output": "..."}, ...]}                              (stdin/stdout)
`,
  flags: FLAGS,
};

export async function gradeCommand(argv: string[], io: CliIo): Promise<number> {
  const args = parseFlags(argv, FLAGS);
  if (args.help) return printHelp(io, HELP);
  const { values } = args;
  const kind = values.kind;
  if (kind === undefined) throw new CliError(`--kind is required (one of ${GRADED_KINDS.join(', ')})`, 2);
  if (values.gold === undefined || values.gold.trim() === '') throw new CliError('--gold is required: the correct answer', 2);
  if (values.choice && kind !== 'mcq') throw new CliError('--choice applies to --kind mcq only', 2);
  if ((values.timeout !== undefined || values.memory !== undefined) && kind !== 'code')
    throw new CliError('--timeout and --memory apply to --kind code only', 2);
  const response = values.response ?? (await io.readStdin());
  const result =
    kind === 'code' ? await gradeCodeResponse(response, values.gold, values) : gradeAnswer(response, { kind, answer: values.gold, choices: values.choice });
  io.stdout(`${JSON.stringify(result)}\n`);
  return 0;
}

async function gradeCodeResponse(response: string, gold: string, flags: { timeout?: number; memory?: number }) {
  const { timeout, memory: memoryMb } = flags;
  const runner = createNodeCodeRunner(memoryMb ? { memoryMb } : {});
  try {
    const { correct, reason, failure, test, extracted } = await gradeCode(response, gold, runner, timeout ? { timeoutMs: timeout * 1000 } : {});
    return { correct, reason, ...(failure ? { failure } : {}), ...(test ? { test } : {}), extracted };
  } finally {
    await runner.close();
  }
}

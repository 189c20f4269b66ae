/**
 * Grades a code answer by running it in a sandbox (a CodeRunner): HumanEval's function tests as one
 * program (prompt + answer + tests + `check(entry_point)`), or the answer once per stdin/stdout test,
 * stopping at the first that fails. A timeout, the memory limit, an exception or a crash is a wrong
 * answer whose reason says which; grading itself never hangs or throws for what the program does.
 */
import { extractCode } from '../extract-answer.ts';
import { parseCodeGold, type CodeGold, type StdioTest } from './code-gold.ts';
import type { CodeRunner, PythonRun } from './python-run.ts';

/** Why a code answer is wrong. */
type CodeFailure = 'no-code' | 'wrong-output' | 'exception' | 'exit' | 'timeout' | 'memory' | 'crash';

export interface CodeGradeResult {
  correct: boolean;
  /** The program found in the response; null when it holds none. */
  extracted: string | null;
  /** What passed, or what went wrong and where, in one line. */
  reason: string;
  failure?: CodeFailure;
  /** stdin/stdout tasks: the 1-based test that failed. */
  test?: number;
}

export interface CodeGradeOptions {
  /** Wall-clock limit of each program run (default 10 s). */
  timeoutMs?: number;
}

const DEFAULT_CODE_TIMEOUT_MS = 10_000;

/** Shown text, cut to `max` characters and quoted, so a reason stays one readable line. */
function quote(text: string, max = 80): string {
  return JSON.stringify(text.length > max ? `${text.slice(0, max)}...` : text);
}

/** Why a run that did not end normally failed, or null when it ended with status 0. */
function runFailure(run: PythonRun): { failure: CodeFailure; reason: string } | null {
  switch (run.status) {
    case 'ok':
      return run.exitCode === 0 ? null : { failure: 'exit', reason: `exited with status ${run.exitCode}` };
    case 'exception': {
      const e = run.exception!;
      const where = e.line ? ` at \`${e.line}\`` : '';
      return { failure: 'exception', reason: `${e.type}${e.message ? `: ${e.message}` : ''}${where}` };
    }
    case 'timeout':
    case 'memory':
    case 'crash':
      return { failure: run.status, reason: run.error ?? run.status };
  }
}

/** Outputs compared line by line, trailing whitespace and trailing blank lines ignored. */
export function sameOutput(expected: string, actual: string): boolean {
  const lines = (s: string) =>
    s
      .replace(/\s+$/, '')
      .split(/\r?\n/)
      .map((l) => l.trimEnd());
  const [a, b] = [lines(expected), lines(actual)];
  return a.length === b.length && a.every((line, i) => line === b[i]);
}

/** HumanEval's program: the prompt (its imports and helpers), the answer, the tests, the check. */
export function functionTestProgram(gold: Extract<CodeGold, { kind: 'function' }>, code: string): string {
  return [gold.prompt ?? '', code, gold.test, `check(${gold.entryPoint})`].join('\n\n') + '\n';
}

async function gradeFunction(gold: Extract<CodeGold, { kind: 'function' }>, code: string, runner: CodeRunner, timeoutMs: number) {
  const run = await runner.run({ code: functionTestProgram(gold, code), timeoutMs });
  // sys.exit(0) in the answer would end the program before check() and pass for right: the known reward hack.
  const exited: ReturnType<typeof runFailure> =
    run.status === 'ok' && run.systemExit ? { failure: 'exit', reason: `exited (status ${run.exitCode}) before check(${gold.entryPoint}) finished` } : null;
  const failed = exited ?? runFailure(run);
  if (!failed) return { correct: true, reason: `check(${gold.entryPoint}) passed` };
  const prefix = run.exception?.type === 'AssertionError' ? 'a test failed: ' : '';
  return { correct: false, ...failed, reason: prefix + failed.reason };
}

function wrongOutput(expected: string, printed: string): { failure: CodeFailure; reason: string } {
  return { failure: 'wrong-output', reason: `expected ${quote(expected.trimEnd())}, printed ${quote(printed.trimEnd())}` };
}

async function gradeStdio(tests: StdioTest[], code: string, runner: CodeRunner, timeoutMs: number) {
  for (const [i, test] of tests.entries()) {
    const run = await runner.run({ code, stdin: test.input, timeoutMs });
    const at = `test ${i + 1} of ${tests.length}`;
    const failed = runFailure(run) ?? (sameOutput(test.output, run.stdout) ? null : wrongOutput(test.output, run.stdout));
    if (failed) return { correct: false, failure: failed.failure, reason: `${at}: ${failed.reason}`, test: i + 1 };
  }
  return { correct: true, reason: `${tests.length} of ${tests.length} tests passed` };
}

/**
 * Grades `response` against `gold` (a CodeGold or its JSON, as Task.answer holds it). Throws only a
 * BatonError ('data/invalid') for a gold that is not one of the two shapes.
 */
export async function gradeCode(response: string, gold: string | CodeGold, runner: CodeRunner, options: CodeGradeOptions = {}): Promise<CodeGradeResult> {
  const parsed = typeof gold === 'string' ? parseCodeGold(gold) : gold;
  const code = extractCode(response);
  if (code === null) return { correct: false, extracted: null, failure: 'no-code', reason: 'the response holds no code' };
  const timeoutMs = options.timeoutMs ?? DEFAULT_CODE_TIMEOUT_MS;
  const graded = parsed.kind === 'function' ? await gradeFunction(parsed, code, runner, timeoutMs) : await gradeStdio(parsed.tests, code, runner, timeoutMs);
  return { extracted: code, ...graded };
}

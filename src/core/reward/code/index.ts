export { parseCodeGold } from './code-gold.ts';
export type { CodeGold, StdioTest } from './code-gold.ts';
export { DEFAULT_CODE_TIMEOUT_MS, functionTestProgram, gradeCode, sameOutput } from './grade-code.ts';
export type { CodeFailure, CodeGradeOptions, CodeGradeResult } from './grade-code.ts';
export { KillableCodeRunner } from './killable-runner.ts';
export type { KillableRunnerOptions, SandboxThread } from './killable-runner.ts';
export type { CodeRunner, PythonException, PythonJob, PythonRun, PythonStatus } from './python-run.ts';

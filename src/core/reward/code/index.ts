export { parseCodeGold } from './code-gold.ts';
export type { CodeGold, StdioTest } from './code-gold.ts';
export { functionTestProgram, gradeCode, sameOutput } from './grade-code.ts';
export type { CodeGradeOptions, CodeGradeResult } from './grade-code.ts';
export { KillableCodeRunner } from './killable-runner.ts';
export type { SandboxThread } from './killable-runner.ts';
export type { CodeRunner, PythonJob, PythonRun } from './python-run.ts';

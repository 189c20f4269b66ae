// A page with only the Python sandbox: tests call window.gradeCode through the client's web-worker runner.
import { createWebCodeRunner } from '../../../src/client/index.ts';
import { gradeCode, type CodeGradeResult } from '../../../src/core/reward/index.ts';

declare global {
  interface Window {
    gradeCode(response: string, gold: string, timeoutMs: number): Promise<CodeGradeResult>;
  }
}

const runner = createWebCodeRunner();
window.gradeCode = (response, gold, timeoutMs) => gradeCode(response, gold, runner, { timeoutMs });

// A page with only the Python sandbox: tests call window.gradeCode through the client's web-worker runner.
// From its module, not client/index.ts: the runner brings core/reward's graders, which the app's first paint must not carry (a page loads it lazily).
import { createWebCodeRunner } from '../../../src/client/sandbox.ts';
import { gradeCode, type CodeGradeResult } from '../../../src/core/reward/index.ts';

declare global {
  interface Window {
    gradeCode(response: string, gold: string, timeoutMs: number): Promise<CodeGradeResult>;
  }
}

const runner = createWebCodeRunner();
window.gradeCode = (response, gold, timeoutMs) => gradeCode(response, gold, runner, { timeoutMs });

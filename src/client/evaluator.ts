/**
 * The page's handle on the evaluator web worker: EvaluatorService, typed, across the thread boundary,
 * and the code runner it grades code items with: the page's Python sandbox (sandbox.ts), imported only
 * when the first code item is graded, so an evaluation without code never loads Pyodide's workers.
 */
import { proxy } from 'comlink';
import '../core/errors/error-transfer.ts';
import type { CodeRunner, PythonJob } from '../core/reward/index.ts';
import type { EvaluationProgress, EvaluatorService } from '../services/evaluator/api.ts';
import { serviceOnFirstUse } from './web-worker-under-policy.ts';
import evaluatorWorkerUrl from '../../workers/evaluator.worker.ts?worker&url';

/** The evaluator worker, started on first use (only the Evaluate page needs it). */
export const evaluatorInService = serviceOnFirstUse<EvaluatorService>(evaluatorWorkerUrl, 'evaluator');

/** Calls `listener` with the evaluation's progress now and on every change. */
export function watchEvaluation(listener: (progress: EvaluationProgress) => void): Promise<void> {
  return evaluatorInService().watch(proxy(listener));
}

let sandbox: Promise<CodeRunner> | undefined;

/** A CodeRunner to hand the worker (comlink proxy): the sandbox module loads on its first run. */
export function lazyCodeRunner(): CodeRunner {
  return proxy({
    async run(job: PythonJob) {
      sandbox ??= import('./sandbox.ts').then((m) => m.createWebCodeRunner());
      return (await sandbox).run(job);
    },
    async close() {
      const running = sandbox;
      sandbox = undefined;
      await (await running)?.close();
    },
  });
}

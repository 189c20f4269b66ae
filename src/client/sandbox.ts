/**
 * The page's Python sandbox for code grading: a CodeRunner over web workers (workers/sandbox.worker.ts)
 * under the page's Content-Security-Policy, each terminated at a run's time limit and replaced by a
 * fresh one for the next run (core/reward's KillableCodeRunner). Not re-exported by client/index.ts: it
 * brings core/reward's graders, so a page imports this module lazily, off the app's first paint.
 */
import { wrap } from 'comlink';
import { KillableCodeRunner, type CodeRunner, type SandboxThread } from '../core/reward/index.ts';
import '../core/errors/error-transfer.ts';
import type { SandboxService } from '../services/sandbox/api.ts';
import { webWorkerUnderPagePolicy } from './web-worker-under-policy.ts';
import sandboxWorkerUrl from '../../workers/sandbox.worker.ts?worker&url';

function spawnSandboxWorker(): SandboxThread {
  const worker = webWorkerUnderPagePolicy(sandboxWorkerUrl, { name: 'sandbox' });
  const service = wrap<SandboxService>(worker);
  // A worker that fails to load or dies never answers comlink: its error event ends what waits on it.
  const died = new Promise<never>((_, reject) =>
    worker.addEventListener('error', (e) => reject(new Error(e.message || 'the sandbox worker failed')), { once: true }),
  );
  died.catch(() => {});
  return {
    ready: Promise.race([service.ready(), died]),
    run: (job) => Promise.race([service.run(job), died]),
    terminate: () => worker.terminate(),
  };
}

/** A CodeRunner for the page; `threads` programs run at once, one worker each (default 1). */
export function createWebCodeRunner(options: { threads?: number } = {}): CodeRunner {
  return new KillableCodeRunner({ spawn: spawnSandboxWorker, ...options });
}

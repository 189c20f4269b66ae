/**
 * The entry of a Node worker thread that runs Python for code grading (node-code-runner.ts spawns it):
 * the sandbox service over the pyodide package's files in node_modules, one job at a time.
 */
import { createRequire } from 'node:module';
import { dirname } from 'node:path';
import { parentPort, workerData } from 'node:worker_threads';
import type { PythonJob } from '../core/reward/index.ts';
import { SandboxService } from '../services/sandbox/index.ts';

const port = parentPort!;
const indexURL = `${dirname(createRequire(import.meta.url).resolve('pyodide'))}/`;
const service = new SandboxService({ indexURL, memoryMb: (workerData as { memoryMb: number }).memoryMb });

service.ready().then(
  () => port.postMessage({ type: 'ready' }),
  (e: unknown) => port.postMessage({ type: 'failed', message: e instanceof Error ? e.message : String(e) }),
);
port.on('message', (job: Omit<PythonJob, 'timeoutMs'>) => {
  void service.run(job).then((run) => port.postMessage({ type: 'done', run }));
});

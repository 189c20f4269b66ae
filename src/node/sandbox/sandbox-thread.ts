/**
 * The entry of a Node worker thread that runs Python for code grading (node-code-runner.ts spawns it):
 * the sandbox service over the pyodide package's files in node_modules, one job at a time.
 */
import childProcess from 'node:child_process';
import { createRequire } from 'node:module';
import { dirname } from 'node:path';
import { parentPort, workerData } from 'node:worker_threads';
import type { PythonJob } from '../../core/reward/index.ts';
import { SandboxService } from '../../services/sandbox/index.ts';

// Under Node, Emscripten's system() (Python's os.system, or libc's through ctypes) runs a host shell with
// this thread's own child_process module. Every way to start a process is cut here; system() then sees
// what a machine without a shell gives, exit status 127, and the program goes on.
const noProcess = { pid: 0, output: [], stdout: null, stderr: null, status: 127, signal: null };
for (const name of ['spawn', 'exec', 'execFile', 'fork', 'execSync', 'execFileSync'] as const) {
  Object.defineProperty(childProcess, name, {
    value: () => {
      throw new Error('The Python sandbox starts no processes.');
    },
  });
}
Object.defineProperty(childProcess, 'spawnSync', { value: () => noProcess });

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

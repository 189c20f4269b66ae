/**
 * Code grading's sandbox under Node: Pyodide in worker threads (sandbox-thread.ts), killed with
 * terminate() at a run's time limit. The thread gets an empty environment (no API keys in
 * process.env), a small JavaScript heap, and Python's memory cap (services/sandbox).
 */
import { Worker } from 'node:worker_threads';
import { KillableCodeRunner, type CodeRunner, type PythonRun, type SandboxThread } from '../../core/reward/index.ts';
import { DEFAULT_MEMORY_MB } from '../../services/sandbox/index.ts';

export interface NodeCodeRunnerOptions {
  /** Python's memory limit per thread, in MiB (default 512). */
  memoryMb?: number;
  /** Programs run at once, one thread each (default 1). */
  threads?: number;
}

type Message = { type: 'ready' } | { type: 'failed'; message: string } | { type: 'done'; run: PythonRun };

function spawnSandboxThread(memoryMb: number): SandboxThread {
  const worker = new Worker(new URL('./sandbox-thread.mjs', import.meta.url), {
    workerData: { memoryMb },
    env: {},
    // Python's heap is WebAssembly memory, capped separately; this bounds the JavaScript around it.
    resourceLimits: { maxOldGenerationSizeMb: 256, maxYoungGenerationSizeMb: 32 },
    stdout: true,
    stderr: true,
  });
  // Python's output comes back in the reply; whatever else Pyodide prints (a fatal error's stack, which the
  // reply reports as a crash) is dropped.
  worker.stdout.resume();
  worker.stderr.resume();
  // An idle sandbox never keeps the process alive; a run in progress is kept alive by its time limit's timer.
  worker.unref();
  let pending: { resolve: (run: PythonRun) => void; reject: (e: Error) => void } | undefined;
  let died: Error | undefined;
  const ready = new Promise<void>((resolve, reject) => {
    worker.on('message', (m: Message) => {
      if (m.type === 'ready') resolve();
      else if (m.type === 'failed') reject(new Error(m.message));
      else pending?.resolve(m.run);
    });
    const fail = (e: Error) => {
      died ??= e;
      reject(e);
      pending?.reject(e);
    };
    worker.on('error', fail);
    worker.on('exit', (code) => fail(new Error(`the sandbox thread exited (code ${code})`)));
  });
  ready.catch(() => {}); // the runner awaits it; a thread that dies later must not be an unhandled rejection
  return {
    ready,
    run: (job) =>
      died
        ? Promise.reject(died)
        : new Promise<PythonRun>((resolve, reject) => {
            pending = { resolve, reject };
            worker.postMessage(job);
          }),
    terminate: () => void worker.terminate(),
  };
}

export function createNodeCodeRunner(options: NodeCodeRunnerOptions = {}): CodeRunner {
  const memoryMb = options.memoryMb ?? DEFAULT_MEMORY_MB;
  return new KillableCodeRunner({ spawn: () => spawnSandboxThread(memoryMb), ...(options.threads ? { threads: options.threads } : {}) });
}

/**
 * One Pyodide interpreter, loaded from the pyodide package's own files (`indexURL`: a folder in Node, the
 * app's static copy in the browser; nothing from a CDN), with the memory cap, the host cut off and the
 * driver installed. `run` is synchronous: a program that never ends blocks this thread, and the host
 * enforces the time limit by terminating the thread (core/reward's KillableCodeRunner).
 */
import { loadPyodide, type PyodideAPI } from 'pyodide';
import type { PythonJob, PythonRun } from '../../core/reward/index.ts';
import { cutHostAccess } from './host-access.ts';
import { capWasmMemory } from './memory-cap.ts';
import { PYTHON_DRIVER } from './python-driver.ts';

export interface SandboxOptions {
  /** Where pyodide.asm.wasm, pyodide.asm.mjs, python_stdlib.zip and pyodide-lock.json are. */
  indexURL: string;
  /** The memory limit of the interpreter (default 512 MiB). */
  memoryMb?: number;
}

export const DEFAULT_MEMORY_MB = 512;

/** The driver's `run`, called through its PyProxy. */
type RunProgram = (code: string, stdin: string) => string;

export class PythonSandbox {
  readonly #run: RunProgram;
  /** Output written straight to file descriptors 1 and 2 (os.write), outside sys.stdout. */
  #raw = { stdout: '', stderr: '' };

  private constructor(pyodide: PyodideAPI) {
    const scope = pyodide.toPy({});
    pyodide.runPython(PYTHON_DRIVER, { globals: scope });
    this.#run = scope.get('run') as RunProgram;
    scope.destroy();
    pyodide.setStdout({ batched: (text) => (this.#raw.stdout += `${text}\n`) });
    pyodide.setStderr({ batched: (text) => (this.#raw.stderr += `${text}\n`) });
  }

  static async load(options: SandboxOptions): Promise<PythonSandbox> {
    capWasmMemory((options.memoryMb ?? DEFAULT_MEMORY_MB) * 2 ** 20);
    // `js` in Python is this object: one with no prototype leads nowhere (not even to Function).
    const pyodide = await loadPyodide({ indexURL: options.indexURL, jsglobals: Object.create(null) as object, env: {} });
    cutHostAccess(pyodide);
    return new PythonSandbox(pyodide);
  }

  run(job: Omit<PythonJob, 'timeoutMs'>): PythonRun {
    this.#raw = { stdout: '', stderr: '' };
    let run: PythonRun;
    try {
      run = JSON.parse(this.#run(job.code, job.stdin ?? '')) as PythonRun;
    } catch (e) {
      // The interpreter itself failed (a fatal error): the host retires this thread.
      const why = e instanceof Error ? e.message.split('\n')[0] : String(e);
      const outOfMemory = /out of memory|past the sandbox's limit/i.test(why);
      return { status: outOfMemory ? 'memory' : 'crash', stdout: this.#raw.stdout, stderr: this.#raw.stderr, exitCode: 1, error: `The Python interpreter failed: ${why}` };
    }
    return { ...run, stdout: this.#raw.stdout + run.stdout, stderr: this.#raw.stderr + run.stderr };
  }
}

/**
 * One Pyodide interpreter, loaded from the pyodide package's own files (`indexURL`: a folder in Node, the
 * app's static copy in the browser; nothing from a CDN), with the memory cap, the host cut off and the
 * baseline recorded. `run` is synchronous: a program that never ends blocks this thread, and the host
 * enforces the time limit by terminating the thread (core/reward's KillableCodeRunner).
 */
import { loadPyodide, type PyodideAPI } from 'pyodide';
import type { PyCallable, PyProxy, PyProxyWithGet, PyProxyWithSet } from 'pyodide/ffi';
import type { PythonJob, PythonRun } from '../../core/reward/index.ts';
import { cutHostAccess } from './host-access.ts';
import { capWasmMemory } from './memory-cap.ts';
import { SANDBOX_SETUP } from './python-driver.ts';
import { RunOutput } from './run-output.ts';

export interface SandboxOptions {
  /** Where pyodide.asm.wasm, pyodide.asm.mjs, python_stdlib.zip and pyodide-lock.json are. */
  indexURL: string;
  /** The memory limit of the interpreter (default 512 MiB). */
  memoryMb?: number;
}

export const DEFAULT_MEMORY_MB = 512;
/** What a run may print, stdout and stderr together. */
const OUTPUT_LIMIT_BYTES = 16 * 2 ** 20;

/** What the driver's `run` returns: (status, exitCode, systemExit[, type, message, traceback, line]). */
type Ending = [PythonRun['status'], number, boolean, string?, string?, string?, string?];

/** What SANDBOX_SETUP hands the host, fixed for the interpreter's life. */
interface Fixed {
  exec: PyCallable;
  dict: PyCallable;
  driver: PyProxy;
  restore: PyProxy;
  builtins: PyProxy;
  baseline: PyProxy;
}

export class PythonSandbox {
  readonly #fixed: Fixed;
  #input = new Uint8Array();
  #output = new RunOutput(OUTPUT_LIMIT_BYTES);

  private constructor(pyodide: PyodideAPI) {
    // File descriptors 0-2 are the current run's: its input, its output (both streams in one order).
    pyodide.setStdin({
      read: (buffer) => {
        const n = Math.min(buffer.length, this.#input.length);
        buffer.set(this.#input.subarray(0, n));
        this.#input = this.#input.subarray(n);
        return n;
      },
    });
    pyodide.setStdout({ write: (buffer) => this.#output.write('stdout', buffer) });
    pyodide.setStderr({ write: (buffer) => this.#output.write('stderr', buffer) });
    const scope = pyodide.toPy({}) as PyProxyWithGet;
    pyodide.runPython(SANDBOX_SETUP, { globals: scope });
    const [exec, dict, driver, restore, builtins, baseline] = (scope.get('sandbox') as PyProxy).toJs({ depth: 1 }) as PyProxy[];
    this.#fixed = { exec: exec as PyCallable, dict: dict as PyCallable, driver, restore, builtins, baseline };
    scope.destroy();
  }

  static async load(options: SandboxOptions): Promise<PythonSandbox> {
    capWasmMemory((options.memoryMb ?? DEFAULT_MEMORY_MB) * 2 ** 20);
    // Python's `js` module (unregistered once loaded) is this object: one with no prototype leads nowhere.
    const pyodide = await loadPyodide({ indexURL: options.indexURL, jsglobals: Object.create(null) as object, env: {} });
    cutHostAccess(pyodide);
    return new PythonSandbox(pyodide);
  }

  run(job: Omit<PythonJob, 'timeoutMs'>): PythonRun {
    this.#input = new TextEncoder().encode(job.stdin ?? '');
    this.#output = new RunOutput(OUTPUT_LIMIT_BYTES);
    let ending: Ending;
    try {
      ending = this.#call(this.#fixed.driver, 'run', job.code) as Ending;
      this.#call(this.#fixed.restore, 'restore', this.#fixed.baseline);
    } catch (e) {
      // The interpreter failed (a fatal error), or could not be put back for the next program: either way
      // the status is a crash, and the host retires this thread.
      const why = fatalCause(e);
      const outOfMemory = /out of memory|past the sandbox's limit/i.test(why);
      return { ...this.#output.text(), status: outOfMemory ? 'memory' : 'crash', exitCode: 1, error: `The Python interpreter failed: ${why}` };
    }
    return { ...this.#output.text(), ...describe(ending), ...this.#output.overflow() };
  }

  /** Executes `code` in fresh globals and calls its function `name`; no earlier program touched either. */
  #call(code: PyProxy, name: string, ...args: unknown[]): unknown {
    const scope = this.#fixed.dict() as PyProxyWithGet & PyProxyWithSet;
    try {
      scope.set('__builtins__', this.#fixed.builtins);
      this.#fixed.exec(code, scope);
      const fn = scope.get(name) as PyCallable;
      try {
        const result = fn(...args) as unknown;
        return result && typeof result === 'object' && 'toJs' in result ? toPlain(result as PyProxy) : result;
      } finally {
        fn.destroy();
      }
    } finally {
      scope.destroy();
    }
  }
}

/** One line saying why the interpreter failed: a Python traceback's last line, else the error's first. */
function fatalCause(e: unknown): string {
  const lines = (e instanceof Error ? e.message : String(e)).split('\n').filter((line) => line.trim());
  return (lines[0]?.startsWith('Traceback') ? lines.at(-1) : lines[0]) ?? 'no message';
}

function toPlain(proxy: PyProxy): unknown {
  try {
    return proxy.toJs();
  } finally {
    proxy.destroy();
  }
}

function describe([status, exitCode, systemExit, type, message, traceback, line]: Ending): Omit<PythonRun, 'stdout' | 'stderr'> {
  if (status === 'memory') return { status, exitCode, error: 'Stopped at the memory limit (MemoryError).' };
  if (status === 'exception') return { status, exitCode, exception: { type: type!, message: message!, traceback: traceback!, ...(line ? { line } : {}) } };
  return { status, exitCode, ...(systemExit ? { systemExit } : {}) };
}

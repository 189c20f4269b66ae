/**
 * A CodeRunner over killable sandbox threads (a Node worker thread, a browser web worker; the caller says
 * how to spawn one). A run past its time limit kills its thread: Python in WebAssembly cannot be
 * interrupted from outside, so terminating the thread is the only sure stop. A run that hit the memory
 * limit or crashed also retires its thread (WebAssembly memory never shrinks, and a crashed interpreter is
 * unusable); the next run spawns a fresh one. Jobs beyond the thread count wait their turn.
 */
import type { CodeRunner, PythonJob, PythonRun } from './python-run.ts';

/** One sandbox: loads Python once, then runs jobs one at a time. */
export interface SandboxThread {
  /** Settles when the sandbox can take jobs (rejects when it cannot start). */
  ready: Promise<void>;
  /** Rejects only when the thread itself fails (it died, its messages broke). */
  run(job: Omit<PythonJob, 'timeoutMs'>): Promise<PythonRun>;
  terminate(): void;
}

export interface KillableRunnerOptions {
  spawn: () => SandboxThread;
  /** Threads running jobs at once (default 1). */
  threads?: number;
  /** How long a fresh thread may take to load Python (default 60 s: seconds on a busy machine). */
  startTimeoutMs?: number;
}

const failed = (status: 'timeout' | 'crash', error: string): PythonRun => ({ status, stdout: '', stderr: '', exitCode: 1, error });

/** Resolves with `work`, or with `late()` once `ms` have passed, whichever comes first. */
function within<T>(work: Promise<T>, ms: number, late: () => T): Promise<T> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const deadline = new Promise<T>((resolve) => (timer = setTimeout(() => resolve(late()), ms)));
  return Promise.race([work, deadline]).finally(() => clearTimeout(timer));
}

export class KillableCodeRunner implements CodeRunner {
  readonly #options: Required<KillableRunnerOptions>;
  readonly #idle: (SandboxThread | undefined)[] = [];
  readonly #waiting: (() => void)[] = [];
  readonly #busy = new Set<SandboxThread | undefined>();
  #free: number;

  constructor(options: KillableRunnerOptions) {
    this.#options = { threads: 1, startTimeoutMs: 60_000, ...options };
    this.#free = this.#options.threads;
  }

  async run(job: PythonJob): Promise<PythonRun> {
    await this.#acquire();
    let thread = this.#idle.pop();
    let keep = false;
    try {
      thread ??= this.#options.spawn();
      this.#busy.add(thread);
      const start = await within(
        thread.ready.then(
          () => null,
          (e: unknown) => failed('crash', `The Python sandbox did not start: ${e instanceof Error ? e.message : String(e)}`),
        ),
        this.#options.startTimeoutMs,
        () => failed('crash', `The Python sandbox did not start within ${this.#options.startTimeoutMs / 1000} s.`),
      );
      if (start) return start;
      const result = await within(
        thread.run({ code: job.code, ...(job.stdin !== undefined ? { stdin: job.stdin } : {}) }).catch((e: unknown) =>
          failed('crash', `The Python sandbox crashed: ${e instanceof Error ? e.message : String(e)}`),
        ),
        job.timeoutMs,
        () => failed('timeout', `Killed after the time limit of ${job.timeoutMs / 1000} s.`),
      );
      keep = result.status === 'ok' || result.status === 'exception';
      return result;
    } finally {
      this.#busy.delete(thread);
      if (keep) this.#idle.push(thread);
      else thread?.terminate();
      this.#release();
    }
  }

  async close(): Promise<void> {
    for (const thread of [...this.#idle.splice(0), ...this.#busy]) thread?.terminate();
  }

  #acquire(): Promise<void> {
    if (this.#free > 0) {
      this.#free--;
      return Promise.resolve();
    }
    return new Promise((resolve) => this.#waiting.push(resolve));
  }

  #release(): void {
    const next = this.#waiting.shift();
    if (next) next();
    else this.#free++;
  }
}

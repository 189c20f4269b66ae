/**
 * A CodeRunner over killable sandbox threads (a Node worker thread, a browser web worker; the caller says
 * how to spawn one). A run past its time limit kills its thread: Python in WebAssembly cannot be
 * interrupted from outside, so terminating the thread is the only sure stop. A run that hit the memory
 * limit or crashed also retires its thread (WebAssembly memory never shrinks, and a crashed interpreter is
 * unusable). A retired thread's replacement starts loading at once, so the next run mostly finds it
 * ready. Jobs beyond the thread count wait their turn.
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

interface KillableRunnerOptions {
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

const message = (e: unknown) => (e instanceof Error ? e.message : String(e));

export class KillableCodeRunner implements CodeRunner {
  readonly #options: Required<KillableRunnerOptions>;
  readonly #idle: SandboxThread[] = [];
  readonly #busy = new Set<SandboxThread>();
  readonly #waiting: (() => void)[] = [];
  #free: number;
  /** Set by close(): a run that ends after it retires its thread without spawning a replacement. */
  #closed = false;

  constructor(options: KillableRunnerOptions) {
    this.#options = { threads: 1, startTimeoutMs: 60_000, ...options };
    this.#free = this.#options.threads;
  }

  async run(job: PythonJob): Promise<PythonRun> {
    this.#closed = false;
    await this.#acquire();
    const thread = this.#idle.pop() ?? this.#spawn();
    if (!thread) {
      this.#release();
      return failed('crash', 'The Python sandbox could not be started.');
    }
    this.#busy.add(thread);
    let result: PythonRun | undefined;
    try {
      result = await this.#runOn(thread, job);
      return result;
    } finally {
      this.#busy.delete(thread);
      if (this.#closed) {
        thread.terminate();
      } else if (result?.status === 'ok' || result?.status === 'exception') {
        this.#idle.push(thread);
      } else {
        thread.terminate();
        const spare = this.#spawn();
        if (spare) this.#idle.push(spare);
      }
      this.#release();
    }
  }

  async close(): Promise<void> {
    this.#closed = true;
    for (const thread of [...this.#idle.splice(0), ...this.#busy]) thread.terminate();
  }

  async #runOn(thread: SandboxThread, job: PythonJob): Promise<PythonRun> {
    const { startTimeoutMs } = this.#options;
    const start = await within(
      thread.ready.then(
        () => null,
        (e: unknown) => failed('crash', `The Python sandbox did not start: ${message(e)}`),
      ),
      startTimeoutMs,
      () => failed('crash', `The Python sandbox did not start within ${startTimeoutMs / 1000} s.`),
    );
    if (start) return start;
    return within(
      thread
        .run({ code: job.code, ...(job.stdin !== undefined ? { stdin: job.stdin } : {}) })
        .catch((e: unknown) => failed('crash', `The Python sandbox crashed: ${message(e)}`)),
      job.timeoutMs,
      () => failed('timeout', `Killed after the time limit of ${job.timeoutMs / 1000} s.`),
    );
  }

  /** A fresh thread (loading in the background until a run waits on it); undefined when none can be made. */
  #spawn(): SandboxThread | undefined {
    try {
      return this.#options.spawn();
    } catch {
      return undefined;
    }
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

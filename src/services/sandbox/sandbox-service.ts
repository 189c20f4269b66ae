/**
 * What a sandbox thread (a browser web worker, a Node worker thread) exposes: Python runs, the
 * interpreter loaded on first use and kept for the thread's life.
 */
import type { PythonJob, PythonRun } from '../../core/reward/index.ts';
import { PythonSandbox, type SandboxOptions } from './python-sandbox.ts';

export class SandboxService {
  readonly #options: SandboxOptions;
  #sandbox: Promise<PythonSandbox> | undefined;

  constructor(options: SandboxOptions) {
    this.#options = options;
  }

  /** Loads the interpreter (once); the host starts a job's time limit after this settles. */
  async ready(): Promise<void> {
    this.#sandbox ??= PythonSandbox.load(this.#options);
    await this.#sandbox;
  }

  async run(job: Omit<PythonJob, 'timeoutMs'>): Promise<PythonRun> {
    await this.ready();
    return (await this.#sandbox!).run(job);
  }
}

import type { Episode } from '../../core/episodes/index.ts';
import type { RunEvent } from '../../core/orchestra/index.ts';
import type { CallRequest, CallResult, WorkerSpec } from '../../core/providers/index.ts';
import { buildWorker, ModelRuntimes, TabLocalModels } from '../runtimes/index.ts';
import type { AskRequest, CompareRequest, EditedRunRequest, FuseRequest } from './api.ts';
import { runAsk } from './run-ask.ts';
import { runCompare, runEdited, runFuse } from './run-compare.ts';

/**
 * What workers/conductor.worker.ts exposes: runs questions off the page's thread and streams their
 * events back, with the model runtimes (`runtimes`: Baton's engine and web-llm; loads with progress,
 * cancel, unload, caches) that model Conductors and local pool workers run on. The same class runs
 * in-thread in tests.
 */
export class AskService {
  #runs = new Set<AbortController>();
  readonly runtimes: ModelRuntimes;

  constructor(runtimes = new ModelRuntimes()) {
    this.runtimes = runtimes;
  }

  ask(request: AskRequest, onEvent: (event: RunEvent) => void): Promise<Episode> {
    return this.#stoppable((signal) => runAsk(request, { signal, onEvent, runtimes: this.runtimes }));
  }

  /** Several workflows for one question, run side by side as a group; `onEvent` says which run (0-based) each event is of. */
  compare(request: CompareRequest, onEvent: (run: number, event: RunEvent) => void): Promise<Episode[]> {
    return this.#stoppable((signal) => runCompare(request, { signal, onEvent, runtimes: this.runtimes }));
  }

  /** One of a comparison's plans, edited by hand, run again into its group. */
  rerunEdited(request: EditedRunRequest, onEvent: (event: RunEvent) => void): Promise<Episode> {
    return this.#stoppable((signal) => runEdited(request, { signal, onEvent, runtimes: this.runtimes }));
  }

  /** A comparison's answers fused into one by a worker, stored in its group. */
  fuse(request: FuseRequest, onEvent: (event: RunEvent) => void): Promise<Episode> {
    return this.#stoppable((signal) => runFuse(request, { signal, onEvent, runtimes: this.runtimes }));
  }

  /** Runs `work` until it ends or stop() is called. */
  async #stoppable<T>(work: (signal: AbortSignal) => Promise<T>): Promise<T> {
    const controller = new AbortController();
    this.#runs.add(controller);
    try {
      return await work(controller.signal);
    } finally {
      this.#runs.delete(controller);
    }
  }

  /**
   * The Workers page's test of a local worker (engine or web-llm), which runs here beside the Conductor: one
   * short answer, its model loaded first when needed (loads show as the Conductor's do).
   */
  async checkLocalWorker(spec: WorkerSpec, call: Pick<CallRequest, 'messages' | 'maxTokens' | 'timeoutMs'>): Promise<CallResult> {
    const worker = await buildWorker(spec, {}, undefined, new TabLocalModels(this.runtimes));
    return worker.call(call);
  }

  /** Stops every run in progress (a model load it waits for included); each still resolves, with status 'aborted'. */
  stop(): void {
    for (const run of this.#runs) run.abort();
  }
}

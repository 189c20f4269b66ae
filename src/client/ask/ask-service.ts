import type { Episode } from '../../core/episodes/index.ts';
import type { RunEvent } from '../../core/orchestra/index.ts';
import { EngineHost } from '../conductors/engine-host.ts';
import type { AskRequest } from './ask-request.ts';
import { runAsk } from './run-ask.ts';

/**
 * What workers/conductor.worker.ts exposes: runs questions off the page's thread and streams their
 * events back, with Baton's engine (`engine`: load, unload, cache) for engine Conductors. The same class
 * runs in-thread in tests.
 */
export class AskService {
  #runs = new Set<AbortController>();
  readonly engine = new EngineHost();

  async ask(request: AskRequest, onEvent: (event: RunEvent) => void): Promise<Episode> {
    const controller = new AbortController();
    this.#runs.add(controller);
    try {
      return await runAsk(request, { signal: controller.signal, onEvent, engine: this.engine });
    } finally {
      this.#runs.delete(controller);
    }
  }

  /** Stops every run in progress; each still resolves, with status 'aborted'. */
  stop(): void {
    for (const run of this.#runs) run.abort();
  }
}

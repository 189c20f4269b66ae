/**
 * The Conductor worker's latest model load, as the Ask page shows it: a run that must first load its
 * Conductor (the demo engine model, a web-llm model) shows the download here, with a Cancel.
 */
import { runtimesInService, watchConductorLoads, type ConductorLoadStatus } from '../../../client/index.ts';
import { shownLoad, type LoadsByRuntime } from './shown-load.ts';

export class ConductorLoad {
  /** The latest status of each runtime's loads: one finishing must not hide the other still loading. */
  #byRuntime = $state.raw<LoadsByRuntime>({});
  #latest = $state.raw<ConductorLoadStatus | undefined>(undefined);
  #stop: (() => void) | undefined;

  get status(): ConductorLoadStatus | undefined {
    return shownLoad(this.#byRuntime, this.#latest);
  }

  /** Starts following the worker's loads (this starts the worker if it is not running yet). */
  follow(): void {
    this.#stop ??= watchConductorLoads((s) => {
      this.#byRuntime = { ...this.#byRuntime, [s.runtime]: s };
      this.#latest = s;
    });
  }

  dispose(): void {
    this.#stop?.();
    this.#stop = undefined;
  }

  /** Cancels the load shown (its runtime's loads), not a load of the other runtime. */
  async cancel(): Promise<void> {
    await runtimesInService().cancel(this.status?.runtime);
  }
}

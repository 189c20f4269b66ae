import { getContext, setContext } from 'svelte';
import type { WorkerSpec } from '../../core/providers/index.ts';
import { loadJson, saveJson } from './local-json.ts';
import { defaultPool, keepFallbacksInPool, newWorkerId, readPool } from './pool-schema.ts';

const STORAGE_KEY = 'baton.pool';

/** The stored pool, checked; also read for the page's connect-src before the app starts (allowed-at-load.ts). */
export const loadPool = (): WorkerSpec[] => readPool(loadJson(STORAGE_KEY));

/** The ordered worker pool: position i is `Model id i` for the Conductor. Persisted in localStorage. */
export class PoolState {
  #workers = $state<WorkerSpec[]>(loadPool());

  get workers(): WorkerSpec[] {
    return this.#workers;
  }

  add(spec: Omit<WorkerSpec, 'id'>): WorkerSpec {
    const worker = {
      ...structuredClone(spec),
      id: newWorkerId(
        spec.model,
        this.#workers.map((w) => w.id),
      ),
    };
    this.#workers.push(worker);
    this.#save();
    return worker;
  }

  update(id: string, patch: Partial<Omit<WorkerSpec, 'id'>>): void {
    const i = this.#workers.findIndex((w) => w.id === id);
    if (i < 0) return;
    this.#workers[i] = { ...this.#workers[i], ...patch };
    this.#save();
  }

  /** Moves a worker up (-1) or down (+1): this changes its Model id. */
  move(id: string, delta: -1 | 1): void {
    const i = this.#workers.findIndex((w) => w.id === id);
    const j = i + delta;
    if (i < 0 || j < 0 || j >= this.#workers.length) return;
    [this.#workers[i], this.#workers[j]] = [this.#workers[j], this.#workers[i]];
    this.#save();
  }

  remove(id: string): void {
    this.#workers = keepFallbacksInPool(this.#workers.filter((w) => w.id !== id));
    this.#save();
  }

  /** The whole pool at once (a preset switched to). */
  replace(workers: WorkerSpec[]): void {
    this.#workers = structuredClone(workers);
    this.#save();
  }

  resetToDemo(): void {
    this.#workers = defaultPool();
    this.#save();
  }

  #save(): void {
    saveJson(STORAGE_KEY, $state.snapshot(this.#workers));
  }
}

const KEY = Symbol('pool');
export const setPool = (p: PoolState): PoolState => setContext(KEY, p);
export const usePool = (): PoolState => getContext<PoolState>(KEY);

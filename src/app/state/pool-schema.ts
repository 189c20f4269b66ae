/** The stored worker pool, checked on load: malformed entries are dropped, an unreadable pool is the demo pool. */
import { DEMO_POOL, type ProviderName, type WorkerSpec } from '../../core/providers/index.ts';
// demo-pool.ts directly: the simulated index also pulls in the graders (mathjs), which first paint must not load.

const PROVIDERS: readonly ProviderName[] = ['openai', 'anthropic', 'google', 'openai-compatible', 'webllm', 'engine', 'simulated', 'replay'];

export function defaultPool(): WorkerSpec[] {
  return structuredClone([...DEMO_POOL]);
}

function isWorkerSpec(value: unknown): value is WorkerSpec {
  const v = value as Partial<WorkerSpec> | null;
  return (
    typeof v === 'object' &&
    v !== null &&
    typeof v.id === 'string' &&
    v.id !== '' &&
    typeof v.model === 'string' &&
    PROVIDERS.includes(v.provider as ProviderName)
  );
}

export function readPool(raw: unknown): WorkerSpec[] {
  if (!Array.isArray(raw)) return defaultPool();
  const seen = new Set<string>();
  return keepFallbacksInPool(raw.filter((w): w is WorkerSpec => isWorkerSpec(w) && !seen.has(w.id) && seen.add(w.id) !== undefined));
}

/** The pool with each fallback that names no other worker of it (removed, or the worker itself) taken off. */
export function keepFallbacksInPool(pool: WorkerSpec[]): WorkerSpec[] {
  const ids = new Set(pool.map((w) => w.id));
  return pool.map((w) => {
    if (w.fallback === undefined || (typeof w.fallback === 'string' && w.fallback !== w.id && ids.has(w.fallback))) return w;
    const { fallback: _, ...rest } = w;
    return rest;
  });
}

/** A fresh id for a new worker: the model name as a slug, numbered when taken. */
export function newWorkerId(model: string, taken: readonly string[]): string {
  const base =
    model
      .toLowerCase()
      .replace(/[^a-z0-9]+/g, '-')
      .replace(/^-|-$/g, '') || 'worker';
  let id = base;
  for (let n = 2; taken.includes(id); n++) id = `${base}-${n}`;
  return id;
}

/**
 * The tab's pool workers: a WorkerModel from its spec, for Ask, the trainer and the evaluator alike, its key
 * taken from the page's unlocked keys by slot (core/keys). Providers (and the AI SDK behind them) load on first use.
 */
import { keySlot } from '../../core/keys/index.ts';
import { SpendingGuard, spendingStore, type SpendingSnapshot } from '../../core/orchestra/index.ts';
import { type LocalModels, type ReplayTable, type WorkerModel, type WorkerSpec, loadProviders } from '../../core/providers/index.ts';

/**
 * This thread's guard of the day and month spending limits, shared by all its runs; the ledger (IndexedDB)
 * opens on the first paid call.
 */
const spending = new SpendingGuard({
  snapshot: async (day): Promise<SpendingSnapshot> => (await spendingStore()).snapshot(day),
  add: async (day, spec, usd) => (await spendingStore()).add(day, spec, usd),
});

/**
 * A pool worker from its spec, with its key from `keys` (by slot); `replay` answers replay workers. `local` runs
 * the workers on models in this thread (the Conductor worker's); without it such workers are refused. A paid
 * worker's calls keep to the spending limits (core/orchestra's SpendingGuard).
 */
export async function buildWorker(spec: WorkerSpec, keys: Record<string, string>, replay?: ReplayTable, local?: LocalModels): Promise<WorkerModel> {
  const { createWorkerModel } = await loadProviders();
  const slot = keySlot(spec);
  return spending.wrap(createWorkerModel(spec, { apiKey: slot === undefined ? undefined : keys[slot], keyName: slot, replay, ...(local ? { local } : {}) }));
}

/** A pool file's workers as models to call: keys from the environment, replay records, local models on Dawn. */
import { loadProviders, resolveApiKey, type LocalModels, type RetryPolicy, type WorkerModel, type WorkerSpec } from '../../core/providers/index.ts';
import type { ReplayTable } from '../../core/providers/replay/index.ts';
import type { CliIo } from '../cli/index.ts';

/**
 * `retry` overrides the network workers' retry policy (a reward server may want a worker down to fail fast);
 * `local` runs the pool's 'engine' workers (model directories), without it they are refused.
 */
export async function buildPool(
  specs: WorkerSpec[],
  env: CliIo['env'],
  replay: ReplayTable | undefined,
  seed: number | undefined,
  options: { retry?: Partial<RetryPolicy>; local?: LocalModels } = {},
): Promise<WorkerModel[]> {
  const { createWorkerModel } = await loadProviders();
  const { retry, local } = options;
  return specs.map((raw) => {
    const spec = seed !== undefined && raw.simulated ? { ...raw, simulated: { ...raw.simulated, seed } } : raw;
    const { key, keyName } = resolveApiKey(spec, env);
    return createWorkerModel(spec, { apiKey: key, keyName, replay, ...(retry ? { retry } : {}), ...(local ? { local } : {}) });
  });
}

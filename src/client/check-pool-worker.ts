/** The Workers page's "test": one tiny call, to learn the latency or the exact error before a real run. */
import { toBatonError } from '../core/errors/index.ts';
import { type CallResult, type WorkerSpec, loadProviders } from '../core/providers/index.ts';
import { checkLocalWorkerInService } from './conductor.ts';
import { keySlot } from '../core/keys/index.ts';

export type PoolWorkerCheck = { ok: true; latencyMs: number; reply: string } | { ok: false; code: string; message: string };

const CHECK = { messages: [{ role: 'user' as const, content: 'Reply with the single word OK.' }], maxTokens: 16 };
/** A remote answer takes seconds; a local worker may first download and load its model. */
const REMOTE_TIMEOUT_MS = 20_000;
const LOCAL_TIMEOUT_MS = 600_000;

const runsLocally = (spec: WorkerSpec) => spec.provider === 'engine' || spec.provider === 'webllm';

export async function checkPoolWorker(spec: WorkerSpec, keyFor: (slot: string) => Promise<string | undefined>): Promise<PoolWorkerCheck> {
  try {
    let result: CallResult;
    if (runsLocally(spec)) {
      // Local workers run in the Conductor worker, beside the Conductor's models; they need no key.
      result = await checkLocalWorkerInService(spec, { ...CHECK, timeoutMs: LOCAL_TIMEOUT_MS });
    } else {
      const { createWorkerModel } = await loadProviders();
      const slot = keySlot(spec);
      const worker = createWorkerModel(spec, { apiKey: slot === undefined ? undefined : await keyFor(slot), keyName: slot, retry: { attempts: 1 } });
      result = await worker.call({ ...CHECK, timeoutMs: REMOTE_TIMEOUT_MS });
    }
    return { ok: true, latencyMs: result.latencyMs, reply: result.text.slice(0, 80) };
  } catch (e) {
    const err = toBatonError(e, 'provider/network');
    return { ok: false, code: err.code, message: err.message };
  }
}

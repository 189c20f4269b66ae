/** The Workers page's "test": one tiny call, to learn the latency or the exact error before a real run. */
import { toBatonError } from '../core/errors/index.ts';
import { type WorkerSpec, loadProviders } from '../core/providers/index.ts';
import { keySlot } from '../core/keys/index.ts';

export type PoolWorkerCheck = { ok: true; latencyMs: number; reply: string } | { ok: false; code: string; message: string };

export async function checkPoolWorker(spec: WorkerSpec, keyFor: (slot: string) => Promise<string | undefined>): Promise<PoolWorkerCheck> {
  try {
    const { createWorkerModel } = await loadProviders();
    const slot = keySlot(spec);
    const worker = createWorkerModel(spec, { apiKey: slot === undefined ? undefined : await keyFor(slot), keyName: slot, retry: { attempts: 1 } });
    const result = await worker.call({
      messages: [{ role: 'user', content: 'Reply with the single word OK.' }],
      maxTokens: 16,
      timeoutMs: 20_000,
    });
    return { ok: true, latencyMs: result.latencyMs, reply: result.text.slice(0, 80) };
  } catch (e) {
    const err = toBatonError(e, 'provider/network');
    return { ok: false, code: err.code, message: err.message };
  }
}

/**
 * Every worker call of an evaluation, kept by a key of (run, worker, request, occurrence) as soon as it
 * returns, so that a run cut off part-way (a kill, a Stop, a budget stop) is finished on resume from the
 * calls it had already made: only a call still in flight when it stopped is made again.
 */
import { hashString } from '../../random.ts';
import { sleep, type CallRequest, type CallResult, type WorkerModel } from '../../providers/index.ts';

export interface CallLog {
  get(key: string): CallResult | undefined;
  /** Keeps a result (and, where the log is a file, writes it before the call's caller sees it). */
  put(key: string, result: CallResult): void | Promise<void>;
}

export interface LoggedCall {
  key: string;
  result: CallResult;
}

/** A CallLog in memory, optionally filled with calls read back from disk. */
export function memoryCallLog(calls: Iterable<LoggedCall> = [], onPut?: (call: LoggedCall) => void | Promise<void>): CallLog {
  const map = new Map<string, CallResult>();
  for (const c of calls) map.set(c.key, c.result);
  return {
    get: (key) => map.get(key),
    put: (key, result) => {
      map.set(key, result);
      return onPut?.({ key, result });
    },
  };
}

/** Two hashes of different seeds: 64 bits, so distinct requests never share a key in practice. */
const digest = (text: string) => `${hashString(text).toString(16)}${hashString(`~${text}`).toString(16)}`;

/**
 * The workers of one run (`runKey`: method, item, repeat), each call answered from the log when it is
 * there and recorded when it is not. Identical requests within the run are told apart by their count.
 */
export function recordingPool(pool: readonly WorkerModel[], runKey: string, log: CallLog): { pool: WorkerModel[]; record: (w: WorkerModel) => WorkerModel } {
  const seen = new Map<string, number>();
  const record = (worker: WorkerModel): WorkerModel => ({
    spec: worker.spec,
    supportsPrefill: worker.supportsPrefill,
    async call(req: CallRequest): Promise<CallResult> {
      const request = digest(JSON.stringify([worker.spec.id, req.messages, req.maxTokens ?? null, req.temperature ?? null]));
      const n = seen.get(request) ?? 0;
      seen.set(request, n + 1);
      const key = `${runKey}|${request}|${n}`;
      const kept = log.get(key);
      if (kept) {
        // Taking as long as the call did keeps the run's measured latency what it would have been.
        await sleep(kept.latencyMs, req.signal);
        req.onDelta?.(kept.text);
        return kept;
      }
      const result = await worker.call(req);
      await log.put(key, result);
      return result;
    },
  });
  return { pool: pool.map(record), record };
}

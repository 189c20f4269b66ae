import type { CallRequest, CallResult, WorkerModel } from '../providers/index.ts';

/**
 * One response per distinct worker call, shared by every run that wraps its workers with the same cache
 * (a training run's rollouts; later `baton eval` and the reward server): a call identical to an earlier
 * one (same worker spec, messages, output cap, temperature and task) gets the earlier response instead
 * of a second request, also while the first is still in flight. Such a result says `fromCache`, so the
 * executor records the step as served from the cache and a budget counts its dollars once.
 * With a temperature above 0 the identical calls share one sample instead of drawing one each.
 * A failed call is not kept: the next identical call asks again (its waiters get the same failure).
 * Test: test/unit/core/orchestra/response-cache.test.ts.
 */
export class ResponseCache {
  readonly #entries = new Map<string, Promise<CallResult>>();

  /** Oldest responses are forgotten past this many, so a long run's cache stays bounded. */
  constructor(readonly maxEntries = 10_000) {}

  wrap(worker: WorkerModel): WorkerModel {
    const spec = JSON.stringify(worker.spec);
    return {
      spec: worker.spec,
      supportsPrefill: worker.supportsPrefill,
      call: (req) => this.#call(worker, spec, req),
    };
  }

  async #call(worker: WorkerModel, spec: string, req: CallRequest): Promise<CallResult> {
    const key = JSON.stringify([spec, req.messages, req.maxTokens ?? null, req.temperature ?? null, req.task ?? null]);
    const earlier = this.#entries.get(key);
    if (earlier) {
      const started = performance.now();
      const result = await earlier;
      req.onDelta?.(result.text);
      return { ...result, latencyMs: performance.now() - started, attempts: 0, fromCache: true };
    }
    const sent = worker.call(req);
    this.#entries.set(key, sent);
    if (this.#entries.size > this.maxEntries) this.#entries.delete(this.#entries.keys().next().value!);
    sent.catch(() => {
      if (this.#entries.get(key) === sent) this.#entries.delete(key);
    });
    return sent;
  }
}

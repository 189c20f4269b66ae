import { BatonError } from '../errors/index.ts';
import type { ProviderName, WorkerModel } from '../providers/index.ts';
import { CallSlots } from './call-slots.ts';

/** Calls in flight per provider, where nothing says otherwise. */
export type ProviderConcurrency = Partial<Record<ProviderName, number>>;

/**
 * Network APIs rate-limit bursts, so 8 at a time each; a model in this tab or process (web-llm, Baton's
 * engine) answers one call at a time anyway; simulated and replayed workers cost nothing to run together.
 */
export const DEFAULT_PROVIDER_CONCURRENCY: ProviderConcurrency = {
  openai: 8,
  anthropic: 8,
  google: 8,
  'openai-compatible': 8,
  webllm: 1,
  engine: 1,
};

const PROVIDER_NAMES: readonly ProviderName[] = ['openai', 'anthropic', 'google', 'openai-compatible', 'webllm', 'engine', 'simulated', 'replay'];

/** "openai=4,anthropic=2" as calls in flight per provider (baton's --concurrency, the Train page's field); blank is none. */
export function parseProviderConcurrency(text: string): ProviderConcurrency {
  const invalid = (message: string) => new BatonError({ code: 'run/config', message });
  const limits: ProviderConcurrency = {};
  for (const part of text
    .split(',')
    .map((p) => p.trim())
    .filter((p) => p !== '')) {
    const match = /^([a-z-]+)\s*=\s*(\d+)$/.exec(part);
    if (!match) throw invalid(`Calls in flight are provider=N pairs separated by commas (e.g. openai=4,anthropic=2), got "${part}".`);
    const [, provider, n] = match;
    if (!PROVIDER_NAMES.includes(provider as ProviderName)) throw invalid(`No provider "${provider}"; use one of ${PROVIDER_NAMES.join(', ')}.`);
    if (Number(n) < 1) throw invalid(`${provider} needs at least 1 call at a time, got ${n}.`);
    limits[provider as ProviderName] = Number(n);
  }
  return limits;
}

/** The text parseProviderConcurrency reads back into `limits`. */
export const providerConcurrencyText = (limits: ProviderConcurrency): string =>
  Object.entries(limits)
    .map(([provider, n]) => `${provider}=${n}`)
    .join(',');

/** A worker whose calls first wait for one of `slots`. */
function limitCalls(worker: WorkerModel, slots: CallSlots): WorkerModel {
  return {
    spec: worker.spec,
    supportsPrefill: worker.supportsPrefill,
    call: async (req) => {
      const release = await slots.acquire(req.signal);
      try {
        return await worker.call(req);
      } finally {
        release();
      }
    },
  };
}

/**
 * The pool with one CallSlots per provider, shared by all its workers (two OpenAI models share
 * OpenAI's cap; so do two OpenAI-compatible servers): `limits` overrides DEFAULT_PROVIDER_CONCURRENCY;
 * a provider with no cap is left as it is. The slot is taken inside the worker's call, after the
 * executor reserved the call's budget, so under a BudgetLedger a waiting call holds its worst case
 * (training checks its budget between steps and holds none). Test: test/unit/core/orchestra/provider-slots.test.ts.
 */
export function limitPerProvider(pool: readonly WorkerModel[], limits: ProviderConcurrency = {}): WorkerModel[] {
  for (const [provider, limit] of Object.entries(limits)) {
    if (!PROVIDER_NAMES.includes(provider as ProviderName)) {
      throw new BatonError({ code: 'run/config', message: `No provider "${provider}" to limit: use one of ${PROVIDER_NAMES.join(', ')}.`, data: { provider } });
    }
    if (!(Number.isInteger(limit) && limit! >= 1))
      throw new BatonError({
        code: 'run/config',
        message: `The concurrency of ${provider} must be a whole number of at least 1, got ${limit}.`,
        data: { provider },
      });
  }
  const caps = { ...DEFAULT_PROVIDER_CONCURRENCY, ...limits };
  const slots = new Map<ProviderName, CallSlots>();
  return pool.map((worker) => {
    const provider = worker.spec.provider;
    const limit = caps[provider];
    if (limit === undefined) return worker;
    if (!slots.has(provider)) slots.set(provider, new CallSlots(limit));
    return limitCalls(worker, slots.get(provider)!);
  });
}

/**
 * baton train's --concurrency: "openai=4,anthropic=2" as calls in flight per provider, over
 * DEFAULT_PROVIDER_CONCURRENCY. Test: test/unit/node/commands/train.test.ts.
 */
import { PROVIDER_NAMES, type ProviderConcurrency } from '../../core/orchestra/index.ts';
import type { ProviderName } from '../../core/providers/index.ts';
import { CliError } from '../io.ts';

export function parseConcurrencyFlag(value: string): ProviderConcurrency {
  const limits: ProviderConcurrency = {};
  for (const part of value.split(',').map((p) => p.trim()).filter((p) => p !== '')) {
    const match = /^([a-z-]+)=(\d+)$/.exec(part);
    if (!match) throw new CliError(`--concurrency takes provider=N pairs separated by commas (e.g. openai=4,anthropic=2), got "${part}"`, 2);
    const [, provider, n] = match;
    if (!PROVIDER_NAMES.includes(provider as ProviderName)) throw new CliError(`--concurrency: no provider "${provider}"; use one of ${PROVIDER_NAMES.join(', ')}`, 2);
    if (Number(n) < 1) throw new CliError(`--concurrency: ${provider} needs at least 1 call at a time, got ${n}`, 2);
    limits[provider as ProviderName] = Number(n);
  }
  return limits;
}

/**
 * The price of a model by name. Names are compared lower-case with '.' and '@' read as '-', so
 * OpenRouter's `anthropic/claude-sonnet-4.5` finds `claude-sonnet-4-5`; a vendor prefix (`openai/`) is
 * tried with and without; a dated snapshot or alias (`-20250929`, `-2024-08-06`, `-0125`, `-latest`, `-0`,
 * `-preview-...`) finds its base model. Anything else is unknown: undefined, never zero.
 */
import type { Price } from './types.ts';
import { PRICE_TABLE, type PriceEntry } from './price-table.ts';

/** User prices by model name, merged on top of the table (same matching rules). */
export type PriceOverrides = Readonly<Record<string, Price>>;

/** What pricing reads of a worker (a WorkerSpec has these fields). */
interface PricedWorker {
  provider: string;
  model: string;
  baseUrl?: string;
  price?: Price;
}

const SNAPSHOT_SUFFIX = /^-(\d{8}|\d{4}-\d{2}-\d{2}|\d{3,4}|0|latest|preview(-[a-z0-9-]+)?|exp(-[a-z0-9-]+)?)$/;
const FREE: Price = { input: 0, output: 0 };
const OPENROUTER_URL = /^https?:\/\/([a-z0-9-]+\.)*openrouter\.ai(\/|:|$)/i;

const TABLE = indexPrices(PRICE_TABLE.map((entry: PriceEntry) => [entry.model, entry] as const));

function normalizeModelName(name: string): string {
  return name.trim().toLowerCase().replace(/[.@]/g, '-');
}

export function priceFor(model: string, overrides?: PriceOverrides): Price | undefined {
  return findPrice(model, overrides ? [indexPrices(Object.entries(overrides)), TABLE] : [TABLE]);
}

/**
 * A worker's price: its own `price`, else the overrides and the table. A self-hosted OpenAI-compatible
 * server is billed by no one in the table, so only the user's overrides apply to it.
 */
export function priceForWorker(spec: PricedWorker, overrides?: PriceOverrides): Price | undefined {
  if (spec.price) return spec.price;
  const selfHosted = spec.provider !== 'openai' && spec.provider !== 'anthropic' && spec.provider !== 'google' && !isOpenRouterUrl(spec.baseUrl);
  if (!selfHosted) return priceFor(spec.model, overrides);
  return overrides ? findPrice(spec.model, [indexPrices(Object.entries(overrides))]) : undefined;
}

function isOpenRouterUrl(url: string | undefined): boolean {
  return OPENROUTER_URL.test(url ?? '');
}

function findPrice(model: string, tables: Map<string, Price>[]): Price | undefined {
  const [name, variant] = model.split(':');
  // OpenRouter's ':free' variants cost nothing; other variants (':nitro', ...) are priced as their base.
  if (variant?.toLowerCase() === 'free') return FREE;
  const candidates = [normalizeModelName(name), normalizeModelName(name.slice(name.indexOf('/') + 1))];
  for (const table of tables) {
    for (const candidate of candidates) {
      const price = lookup(table, candidate);
      if (price) return stripEntry(price);
    }
  }
  return undefined;
}

function indexPrices(rows: Iterable<readonly [string, Price]>): Map<string, Price> {
  return new Map([...rows].map(([model, price]) => [normalizeModelName(model), price]));
}

function lookup(table: Map<string, Price>, name: string): Price | undefined {
  const exact = table.get(name);
  if (exact) return exact;
  let best: string | undefined;
  for (const key of table.keys()) {
    if (name.startsWith(key) && SNAPSHOT_SUFFIX.test(name.slice(key.length)) && key.length > (best?.length ?? 0)) best = key;
  }
  return best === undefined ? undefined : table.get(best);
}

function stripEntry(price: Price): Price {
  return { input: price.input, output: price.output, ...(price.cachedInput !== undefined ? { cachedInput: price.cachedInput } : {}) };
}

export { addCosts, costUsd, sumUsage } from './cost.ts';
export { sumCosts, type CostTotals } from './ledger.ts';
export { normalizeModelName, priceFor, priceForWorker, type PricedWorker, type PriceOverrides } from './price-lookup.ts';
export { PRICE_TABLE, PRICE_TABLE_DATE, type PriceEntry } from './price-table.ts';
export type { Price, Usage } from './types.ts';

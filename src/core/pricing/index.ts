export { addCosts, costUsd, sumUsage } from './cost.ts';
export { sumCosts } from './ledger.ts';
export { priceFor, priceForWorker, type PriceOverrides } from './price-lookup.ts';
export { PRICE_TABLE, PRICE_TABLE_DATE, type PriceEntry } from './price-table.ts';
export type { Price, Usage } from './types.ts';

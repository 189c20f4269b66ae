import type { Order, Position } from './cursor.ts';
import type { EpisodeFilter } from './filter.ts';
import type { EpisodeIndexName } from './idb-schema.ts';

/** Filters served by an index keyed [field, createdAt, id], most selective first. */
const FIELD_INDEXES: { filter: 'conversation' | 'group' | 'dataset' | 'conductorModel' | 'status'; index: EpisodeIndexName }[] = [
  { filter: 'conversation', index: 'byConversation' },
  { filter: 'group', index: 'byGroup' },
  { filter: 'dataset', index: 'byDataset' },
  { filter: 'conductorModel', index: 'byConductorModel' },
  { filter: 'status', index: 'byStatus' },
];

interface IndexQuery {
  index: EpisodeIndexName;
  /** The filter field the index already narrows to (the rest is checked on each episode). */
  served?: keyof EpisodeFilter;
  range: IDBKeyRange | undefined;
  /** The bounds cross: nothing can match. */
  empty: boolean;
  direction: IDBCursorDirection;
}

/**
 * Picks the index that narrows a query most, and the key range for its time bounds and page cursor.
 * Keys compare element by element and a shorter array sorts before its extensions; any array sorts
 * after any string. So [v, t] bounds every [v, t, id], and [v, []] is above every [v, time, id].
 */
export function planIndexQuery(
  filter: EpisodeFilter,
  order: Order,
  cursor: Position | undefined,
  available: (index: EpisodeIndexName) => boolean,
  keyRange: typeof IDBKeyRange,
  cmp: (a: unknown, b: unknown) => number,
): IndexQuery {
  const field = FIELD_INDEXES.find((f) => filter[f.filter] !== undefined && available(f.index));
  const prefix: IDBValidKey[] = field ? [filter[field.filter] as string] : [];

  let lower: IDBValidKey[] | undefined = filter.from !== undefined ? [...prefix, filter.from] : prefix.length ? prefix : undefined;
  let upper: IDBValidKey[] | undefined = filter.to !== undefined ? [...prefix, filter.to] : prefix.length ? [...prefix, []] : undefined;
  let lowerOpen = false;
  let upperOpen = filter.to !== undefined;
  if (cursor) {
    const at = [...prefix, cursor.createdAt, cursor.id];
    if (order === 'oldest' && (lower === undefined || cmp(at, lower) >= 0)) [lower, lowerOpen] = [at, true];
    if (order === 'newest' && (upper === undefined || cmp(at, upper) <= 0)) [upper, upperOpen] = [at, true];
  }

  const empty = lower !== undefined && upper !== undefined && (cmp(lower, upper) > 0 || (cmp(lower, upper) === 0 && (lowerOpen || upperOpen)));
  let range: IDBKeyRange | undefined;
  if (!empty) {
    if (lower && upper) range = keyRange.bound(lower, upper, lowerOpen, upperOpen);
    else if (lower) range = keyRange.lowerBound(lower, lowerOpen);
    else if (upper) range = keyRange.upperBound(upper, upperOpen);
  }
  return {
    index: field?.index ?? 'byTime',
    served: field?.filter,
    range,
    empty,
    direction: order === 'newest' ? 'prev' : 'next',
  };
}

import { BatonError } from '../errors/index.ts';
import type { Order } from './cursor.ts';
import type { EpisodeFilter } from './filter.ts';
import type { ImportReport } from './import.ts';
import type { EpisodeStats } from './stats.ts';
import type { Episode } from './types.ts';

export interface ListOptions {
  filter?: EpisodeFilter;
  /** Page size (default 50). */
  limit?: number;
  /** The previous page's nextCursor; use it with the same filter and order. */
  cursor?: string;
  /** Default 'newest'. Ties on createdAt are broken by id. */
  order?: Order;
}

export interface EpisodePage {
  episodes: Episode[];
  /** Null on the last page. Episodes added meanwhile never shift or repeat later pages. */
  nextCursor: string | null;
}

/** Where episodes live: IndexedDB in the browser, a directory of JSONL files under Node. */
export interface EpisodeStore {
  /** Stores (or replaces, by id) one episode; throws BatonError 'data/invalid' for a malformed one. */
  put(ep: Episode): Promise<void>;
  /** All or nothing. */
  putMany(eps: Episode[]): Promise<void>;
  get(id: string): Promise<Episode | undefined>;
  list(options?: ListOptions): Promise<EpisodePage>;
  /** True when an episode was removed. */
  delete(id: string): Promise<boolean>;
  count(filter?: EpisodeFilter): Promise<number>;
  stats(filter?: EpisodeFilter): Promise<EpisodeStats>;
  /** One JSON object per item, without a newline; streams in batches, never the whole store at once. */
  exportJsonl(filter?: EpisodeFilter): AsyncIterable<string>;
  /** Lines (or a whole text); bad lines are reported by number, good ones imported, duplicate ids skipped. */
  importJsonl(lines: AsyncIterable<string> | string): Promise<ImportReport>;
  close(): Promise<void>;
}

const DEFAULT_PAGE_SIZE = 50;

export function pageSize(options: ListOptions): number {
  const limit = options.limit ?? DEFAULT_PAGE_SIZE;
  if (!Number.isInteger(limit) || limit < 1) {
    throw new BatonError({ code: 'run/config', message: `Page size must be a whole number >= 1, got ${limit}.` });
  }
  return limit;
}

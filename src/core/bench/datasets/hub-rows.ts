/**
 * A Hugging Face dataset's rows through the datasets-server API (`/splits` to find a config and split
 * when none is given, `/rows` in pages of at most 100), each page cached under its URL so a second
 * load reads nothing from the network. The base URL is a parameter: a local stand-in serves the same
 * JSON in tests. Test: test/unit/core/bench/datasets/hub-rows.test.ts.
 */
import { BatonError } from '../../errors/index.ts';
import { parseJsonKeepingIntegers } from '../../formats/index.ts';
import type { SourceRow } from './user-data.ts';

const DATASETS_SERVER = 'https://datasets-server.huggingface.co';
/** The API's largest page. */
const HUB_PAGE_ROWS = 100;

interface HubDatasetRef {
  dataset: string;
  config?: string;
  split?: string;
}

/** Text kept by URL: a directory under Node, nothing (or IndexedDB) in the page. */
export interface PageCache {
  get(url: string): Promise<string | undefined>;
  put(url: string, text: string): Promise<void>;
}

export interface HubRowsOptions {
  baseUrl?: string;
  /** First row (0-based) and most rows to read. */
  offset?: number;
  limit?: number;
  fetch?: typeof fetch;
  cache?: PageCache;
  signal?: AbortSignal;
  /** Rows read so far and rows to read in all. */
  onProgress?: (read: number, total: number) => void;
}

/** `hf:owner/name[:config[:split]]`, or undefined for a string that does not start with `hf:`. */
export function parseHubRef(text: string): HubDatasetRef | undefined {
  if (!text.startsWith('hf:')) return undefined;
  const [dataset, config, split, ...rest] = text.slice(3).split(':');
  if (!/^[\w.-]+(\/[\w.-]+)?$/.test(dataset) || rest.length > 0 || config === '' || split === '') {
    throw new BatonError({ code: 'run/config', message: `"${text}": write hf:owner/name, hf:owner/name:config or hf:owner/name:config:split.` });
  }
  return { dataset, ...(config ? { config } : {}), ...(split ? { split } : {}) };
}

async function getJson(url: string, options: HubRowsOptions): Promise<unknown> {
  const cached = await options.cache?.get(url);
  if (cached !== undefined) return parseJsonKeepingIntegers(cached);
  let response: Response;
  try {
    response = await (options.fetch ?? fetch)(url, { ...(options.signal ? { signal: options.signal } : {}) });
  } catch (e) {
    throw new BatonError({
      code: 'data/unreachable',
      message: `Cannot reach the datasets server (${url}): ${(e as Error).message}.`,
      cause: e,
      isRetryable: true,
    });
  }
  const text = await response.text();
  if (!response.ok) {
    let why = text.slice(0, 200);
    try {
      why = (JSON.parse(text) as { error?: string }).error ?? why;
    } catch {
      // not JSON: the start of the body says enough
    }
    throw new BatonError({
      code: 'data/unreachable',
      message: `The datasets server answered ${response.status} for ${url}: ${why}`,
      isRetryable: response.status >= 500 || response.status === 429,
    });
  }
  await options.cache?.put(url, text);
  return parseJsonKeepingIntegers(text);
}

/** The config and split to read: the ones given, else the first config and its "test" split (else its first). */
async function resolveSplit(ref: HubDatasetRef, base: string, options: HubRowsOptions): Promise<{ config: string; split: string }> {
  if (ref.config && ref.split) return { config: ref.config, split: ref.split };
  const body = (await getJson(`${base}/splits?dataset=${encodeURIComponent(ref.dataset)}`, options)) as { splits?: { config: string; split: string }[] };
  const splits = (body.splits ?? []).filter((s) => !ref.config || s.config === ref.config);
  const config = ref.config ?? splits[0]?.config;
  const ofConfig = splits.filter((s) => s.config === config);
  const split = ofConfig.find((s) => s.split === 'test')?.split ?? ofConfig[0]?.split;
  if (!config || !split)
    throw new BatonError({
      code: 'data/invalid',
      message: `Dataset ${ref.dataset} has no ${ref.config ? `config "${ref.config}"` : 'split'} the datasets server lists.`,
    });
  return { config, split };
}

interface RowsPage {
  rows: { row_idx: number; row: Record<string, unknown> }[];
  num_rows_total: number;
}

/** The dataset's rows from `offset`, at most `limit`, numbered by their row index (1-based, as lines are). */
export async function hubRows(ref: HubDatasetRef, options: HubRowsOptions = {}): Promise<{ rows: SourceRow[]; config: string; split: string; total: number }> {
  const base = (options.baseUrl ?? DATASETS_SERVER).replace(/\/+$/, '');
  const { config, split } = await resolveSplit(ref, base, options);
  const offset = options.offset ?? 0;
  const rows: SourceRow[] = [];
  let end = offset + (options.limit ?? Infinity);
  for (let at = offset; at < end;) {
    options.signal?.throwIfAborted();
    const length = Math.min(HUB_PAGE_ROWS, end - at);
    const query = new URLSearchParams({ dataset: ref.dataset, config, split, offset: String(at), length: String(length) });
    const page = (await getJson(`${base}/rows?${query}`, options)) as RowsPage;
    if (!Array.isArray(page.rows) || typeof page.num_rows_total !== 'number') {
      throw new BatonError({ code: 'data/invalid', message: `The datasets server's answer for ${ref.dataset} has no rows: is ${base} a datasets server?` });
    }
    end = Math.min(end, page.num_rows_total);
    for (const r of page.rows) rows.push({ line: r.row_idx + 1, record: r.row });
    options.onProgress?.(rows.length, Math.max(0, end - offset));
    if (page.rows.length === 0) break;
    at += page.rows.length;
  }
  return { rows, config, split, total: Math.max(0, end - offset) };
}

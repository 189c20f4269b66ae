/**
 * The recorded answers Baton ships (data/zeroeval, data/routerbench: core/providers/replay's recorded pools)
 * as the tab reads them, for the Train and Evaluate pages alike: each source's models.json is a chunk of its
 * own and each gzipped set an asset, so nothing of a source loads before a run or a form names one of its
 * pools. A source is read, parsed and made a replay table once per worker.
 */
import { lazyDataFiles, readRecordedSource, recordedSourceTable } from '../../core/bench/datasets/index.ts';
import { BatonError } from '../../core/errors/index.ts';
import type { WorkerSpec } from '../../core/providers/index.ts';
import {
  mergeReplayTables,
  RECORDED_POOLS,
  recordedPool,
  recordedSourceOf,
  type RecordedPoolName,
  type RecordedSource,
  type ReplayTable,
} from '../../core/providers/replay/index.ts';

/** The keys of data/ files as seen from a services/<job>/ folder, which the trainer's own loaders share. */
export const DATA_ROOT = '../../../data/';

/** `url` is a path of the app's; the workers start from blob: shims (client/web-worker-under-policy.ts), so it is made whole first. */
async function fetchBytes(url: string): Promise<Uint8Array> {
  const response = await fetch(new URL(url, self.location.origin));
  if (!response.ok) throw new BatonError({ code: 'data/unreachable', message: `Could not read ${url} (${response.status}).` });
  return new Uint8Array(await response.arrayBuffer());
}

const urls = import.meta.glob<string>('../../../data/{zeroeval,routerbench}/*.jsonl.gz', { query: '?url', import: 'default' });

/** Lazy loaders of the recorded sources' files, keyed as lazyDataFiles takes them (under DATA_ROOT). */
export const RECORDED_LOADERS: Record<string, () => Promise<string | Uint8Array>> = {
  ...import.meta.glob<string>('../../../data/{zeroeval,routerbench}/models.json', { query: '?raw', import: 'default' }),
  ...Object.fromEntries(Object.entries(urls).map(([path, url]) => [path, async () => fetchBytes(await url())])),
};

/** data/ as far as the recorded sources go. */
export const recordedFiles = lazyDataFiles(RECORDED_LOADERS, DATA_ROOT);

/** Each promise made once per worker; a failed one is made again next time. */
function once<K, V>(make: (key: K) => Promise<V>): (key: K) => Promise<V> {
  const made = new Map<K, Promise<V>>();
  return (key) => {
    let p = made.get(key);
    if (!p) {
      p = make(key);
      p.catch(() => made.delete(key));
      made.set(key, p);
    }
    return p;
  };
}

/** A source's models and questions. */
export const recordedSource = once((source: RecordedSource) => readRecordedSource(recordedFiles, source));

const sourceTable = once(async (source: RecordedSource) => recordedSourceTable(source, await recordedSource(source)));

/** A recorded pool's workers, as `baton train --pool` and `baton eval --pool` make them. */
export async function recordedPoolWorkers(name: RecordedPoolName): Promise<WorkerSpec[]> {
  const { models, sets } = await recordedSource(RECORDED_POOLS[name].source);
  return recordedPool(
    name,
    models,
    sets.flatMap((s) => s.questions),
  );
}

/** The records the replay models named read from the recorded sources; undefined where none names one (RouteLLM's columns). */
export async function recordedReplay(models: readonly string[]): Promise<ReplayTable | undefined> {
  const named = [...new Set(models.map(recordedSourceOf))].filter((s) => s !== undefined);
  if (named.length === 0) return undefined;
  const tables = await Promise.all(named.map(sourceTable));
  return tables.length === 1 ? tables[0] : mergeReplayTables(tables);
}

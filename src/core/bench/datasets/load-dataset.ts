/**
 * One loader of evaluation data for every host (`baton eval --dataset`, the Evaluate page): a set Baton
 * ships, the user's file (JSONL, CSV, Parquet) or a Hugging Face dataset, the last two through a field
 * mapping. Rows that cannot become tasks come back by line (file) or row (Parquet, Hub) with their
 * reason; whether they stop the run is the caller's to say (badRowsError). A host gives its data/ files
 * and how it reaches the Hub (its page cache); nothing else differs. Test: test/unit/core/bench/datasets/load-dataset.test.ts.
 */
import type { Task, TaskKind } from '../../task.ts';
import type { BuiltInDataset, UserFileFormat } from './built-in.ts';
import { builtInTasks, type DataFiles } from './data-files.ts';
import { hubRows, parseHubRef, type HubRowsOptions } from './hub-rows.ts';
import { csvRows, jsonlRows, mapRows, parquetRows, parseFieldMap, type BadRow, type SourceRow } from './user-data.ts';

/** How the user's rows become tasks. */
export interface RowMapping {
  /** `question=..,answer=..,kind=..,choices=..,id=..` (parseFieldMap); '' keeps the default columns. */
  map: string;
  /** Kind of rows that name none; absent: the kind each answer suggests. */
  kind?: TaskKind;
}

export type DataSource =
  | { from: 'builtin'; name: BuiltInDataset; subjects?: readonly string[] }
  /** `name` names the set in messages and episodes. */
  | ({ from: 'file'; name: string; format: UserFileFormat; bytes: ArrayBuffer | Uint8Array } & RowMapping)
  /** `owner/name[:config[:split]]`, read through the datasets server. */
  | ({ from: 'hub'; dataset: string } & RowMapping);

interface DatasetRequest {
  data: DataSource;
  /** First task (0-based) and most tasks to take. */
  offset: number;
  limit?: number;
}

export interface DatasetHost {
  /** The files Baton ships in data/. */
  files: DataFiles;
  /** How Hub pages are read: the server (a stand-in in tests), their cache, progress and cancelling. */
  hub?: Pick<HubRowsOptions, 'baseUrl' | 'cache' | 'fetch' | 'signal' | 'onProgress'>;
}

export interface LoadedDataset {
  tasks: Task[];
  /** The user's rows that cannot be tasks, by line (file) or row (Parquet, Hub). */
  bad: BadRow[];
  unit: 'line' | 'row';
}

function fileRows(format: UserFileFormat, bytes: ArrayBuffer | Uint8Array): SourceRow[] | Promise<SourceRow[]> {
  if (format === 'parquet')
    return parquetRows(bytes instanceof Uint8Array ? (bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength) as ArrayBuffer) : bytes);
  const text = new TextDecoder().decode(bytes);
  return format === 'csv' ? csvRows(text) : jsonlRows(text);
}

/** The tasks of the request's data in its window (offset, limit), and the user's rows that cannot be tasks. */
export async function loadDataset(req: DatasetRequest, host: DatasetHost): Promise<LoadedDataset> {
  const window = (tasks: Task[]) => tasks.slice(req.offset, req.limit === undefined ? undefined : req.offset + req.limit);
  const d = req.data;
  if (d.from === 'builtin') return { tasks: window(await builtInTasks(d.name, host.files, d.subjects)), bad: [], unit: 'line' };
  const map = parseFieldMap(d.map);
  const defaults = d.kind ? { defaultKind: d.kind } : {};
  if (d.from === 'hub') {
    const ref = parseHubRef(`hf:${d.dataset}`)!;
    // The server reads the window: the rows outside it are never fetched.
    const read = await hubRows(ref, { ...host.hub, offset: req.offset, ...(req.limit !== undefined ? { limit: req.limit } : {}) });
    return { ...mapRows(read.rows, map, { ...defaults, dataset: `${ref.dataset}:${read.config}:${read.split}` }), unit: 'row' };
  }
  const { tasks, bad } = mapRows(await fileRows(d.format, d.bytes), map, { ...defaults, dataset: d.name });
  return { tasks: window(tasks), bad, unit: d.format === 'parquet' ? 'row' : 'line' };
}

/**
 * The Evaluate page's items, read in the evaluator worker: a built-in set from the repository's data/
 * (each file a chunk of its own, loaded only when chosen), the user's file (its bytes), or a Hugging Face
 * dataset through the datasets server, with core/bench's loaders and field mapping, as `baton eval`
 * reads them under Node. Rows that cannot become items come back by line with their reason.
 */
import {
  badRowsError,
  csvRows,
  hubRows,
  jsonlRows,
  loadAime,
  loadGsm8k,
  loadHumanEval,
  loadMath500,
  loadMmluCsv,
  mapRows,
  parquetRows,
  parseFieldMap,
  parseHubRef,
  type BadRow,
  type PageCache,
  type SourceRow,
} from '../../core/bench/datasets/index.ts';
import { BatonError } from '../../core/errors/index.ts';
import type { Task } from '../../core/task.ts';
import type { BuiltInDataset, EvalSettings } from './eval-settings.ts';

const MMLU = import.meta.glob<string>('../../../data/mmlu/test/*_test.csv', { query: '?raw', import: 'default' });
const subjectOf = (path: string) => path.slice(path.lastIndexOf('/') + 1).replace(/_test\.csv$/, '');

/** MMLU's subjects, as the page offers them. */
export const mmluSubjects = (): string[] => Object.keys(MMLU).map(subjectOf).sort();

/**
 * A .gz file's text. Some static servers (vite preview among them) send a .gz with Content-Encoding: gzip,
 * so the browser has already unpacked it: only bytes that still start with gzip's magic are unpacked here.
 */
async function gunzipText(url: URL): Promise<string> {
  const response = await fetch(url);
  if (!response.ok) throw new BatonError({ code: 'data/unreachable', message: `Could not read ${url.pathname} (${response.status}).` });
  const bytes = new Uint8Array(await response.arrayBuffer());
  if (bytes[0] !== 0x1f || bytes[1] !== 0x8b) return new TextDecoder().decode(bytes);
  return new Response(new Blob([bytes]).stream().pipeThrough(new DecompressionStream('gzip'))).text();
}

async function mmlu(subjects: readonly string[] | undefined): Promise<Task[]> {
  const all = Object.entries(MMLU).sort(([a], [b]) => a.localeCompare(b));
  const unknown = (subjects ?? []).filter((s) => !all.some(([path]) => subjectOf(path) === s));
  if (unknown.length) throw new BatonError({ code: 'run/config', message: `No MMLU subject ${unknown.join(', ')}.` });
  const chosen = subjects?.length ? all.filter(([path]) => subjects.includes(subjectOf(path))) : all;
  return (await Promise.all(chosen.map(async ([path, load]) => loadMmluCsv(await load(), subjectOf(path))))).flat();
}

export async function builtInTasks(name: BuiltInDataset, subjects?: readonly string[]): Promise<Task[]> {
  switch (name) {
    case 'gsm8k':
      return loadGsm8k((await import('../../../data/gsm8k/test.jsonl?raw')).default);
    case 'math500':
      return loadMath500((await import('../../../data/math500/test.jsonl?raw')).default);
    case 'aime2024':
      return loadAime((await import('../../../data/aime2024/test.jsonl?raw')).default);
    case 'humaneval':
      return loadHumanEval(await gunzipText(new URL('../../../data/humaneval/HumanEval.jsonl.gz', import.meta.url)));
    case 'mmlu':
      return mmlu(subjects);
  }
}

export interface LoadedItems {
  tasks: Task[];
  /** Rows of the user's data that cannot be items, by line (file) or row (Parquet, Hub). */
  bad: BadRow[];
  unit: 'line' | 'row';
}

export interface LoadOptions {
  /** The user's file, for a 'file' source. */
  file?: ArrayBuffer;
  hubCache?: PageCache;
  hubBaseUrl?: string;
  signal?: AbortSignal;
  onProgress?: (read: number, total: number) => void;
}

function fileRows(format: 'jsonl' | 'csv' | 'parquet', bytes: ArrayBuffer): SourceRow[] | Promise<SourceRow[]> {
  if (format === 'parquet') return parquetRows(bytes);
  const text = new TextDecoder().decode(bytes);
  return format === 'csv' ? csvRows(text) : jsonlRows(text);
}

/** The items of the settings' data, in their window (offset, limit), and the bad rows found. */
export async function loadItems(s: Pick<EvalSettings, 'data' | 'offset' | 'limit'>, options: LoadOptions = {}): Promise<LoadedItems> {
  const window = (tasks: Task[]) => tasks.slice(s.offset, s.limit === undefined ? undefined : s.offset + s.limit);
  const d = s.data;
  if (d.from === 'builtin') return { tasks: window(await builtInTasks(d.name, d.subjects)), bad: [], unit: 'line' };
  const map = parseFieldMap(d.map);
  const defaults = { ...(d.kind ? { defaultKind: d.kind } : {}) };
  if (d.from === 'hub') {
    const ref = parseHubRef(`hf:${d.dataset}`)!;
    const read = await hubRows(ref, {
      offset: s.offset,
      ...(s.limit !== undefined ? { limit: s.limit } : {}),
      ...(options.hubBaseUrl ? { baseUrl: options.hubBaseUrl } : {}),
      ...(options.hubCache ? { cache: options.hubCache } : {}),
      ...(options.signal ? { signal: options.signal } : {}),
      ...(options.onProgress ? { onProgress: options.onProgress } : {}),
    });
    return { ...mapRows(read.rows, map, { ...defaults, dataset: `${ref.dataset}:${read.config}:${read.split}` }), unit: 'row' };
  }
  if (!options.file) throw new BatonError({ code: 'run/config', message: `Pick the file ${d.name} again: its rows are read when the evaluation starts.` });
  const { tasks, bad } = mapRows(await fileRows(d.format, options.file), map, { ...defaults, dataset: d.name });
  return { tasks: window(tasks), bad, unit: d.format === 'parquet' ? 'row' : 'line' };
}

/** The error a start with bad rows (and no "leave them out") ends in, in the page's words. */
export const badRowsOnPage = (source: string, items: LoadedItems) =>
  badRowsError(source, items.bad, items.unit, 'change the field mapping, or tick "Leave bad rows out" to evaluate the rest');

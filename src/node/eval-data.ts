/**
 * `baton eval --dataset`: a built-in set from data/ (math500, gsm8k, mmlu, aime2024, humaneval), a file
 * of the user's (.jsonl, .csv, .parquet) through --map, or hf:owner/name[:config[:split]] read through
 * the datasets server, its pages cached on disk under --cache-dir. Bad rows stop the load with their
 * line numbers unless --skip-bad, which reports them.
 */
import { createHash } from 'node:crypto';
import { mkdir, readdir, readFile, rename, writeFile } from 'node:fs/promises';
import { extname, join, resolve } from 'node:path';
import { gunzipSync } from 'node:zlib';
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
} from '../core/bench/index.ts';
import type { Task, TaskKind } from '../core/task.ts';
import { CliError } from './io.ts';

const DATA = new URL('../../data/', import.meta.url);
export const BUILT_IN_DATASETS = ['math500', 'gsm8k', 'mmlu', 'aime2024', 'humaneval'] as const;

export interface DatasetRequest {
  /** As the user wrote it: names the set in messages and episodes. */
  dataset: string;
  /** The file it names, resolved once (so a resumed run reads the same file from anywhere). */
  file?: string;
  map?: string;
  subjects?: string[];
  /** Kind of rows that name none (user data); else the kind each answer suggests. */
  kind?: TaskKind;
  offset: number;
  limit?: number;
  skipBad: boolean;
  cwd: string;
  hfEndpoint?: string;
  cacheDir: string;
  onProgress?: (read: number, total: number) => void;
}

export interface LoadedDataset {
  tasks: Task[];
  /** Rows left out with --skip-bad. */
  bad: BadRow[];
}

const dataText = (path: string) => readFile(new URL(path, DATA), 'utf8');

async function mmlu(subjects: string[] | undefined): Promise<Task[]> {
  const dir = new URL('mmlu/test/', DATA);
  const all = (await readdir(dir)).filter((f) => f.endsWith('_test.csv')).map((f) => f.replace(/_test\.csv$/, '')).sort();
  const unknown = (subjects ?? []).filter((s) => !all.includes(s));
  if (unknown.length) throw new CliError(`--subjects: no MMLU subject ${unknown.join(', ')} (e.g. ${all.slice(0, 4).join(', ')}, ...)`, 2);
  const chosen = subjects ?? all;
  return (await Promise.all(chosen.map(async (s) => loadMmluCsv(await readFile(new URL(`${s}_test.csv`, dir), 'utf8'), s)))).flat();
}

async function builtIn(name: string, subjects: string[] | undefined): Promise<Task[]> {
  if (subjects && name !== 'mmlu') throw new CliError('--subjects applies to --dataset mmlu only', 2);
  switch (name) {
    case 'math500':
      return loadMath500(await dataText('math500/test.jsonl'));
    case 'gsm8k':
      return loadGsm8k(await dataText('gsm8k/test.jsonl'));
    case 'aime2024':
      return loadAime(await dataText('aime2024/test.jsonl'));
    case 'humaneval':
      return loadHumanEval(gunzipSync(await readFile(new URL('humaneval/HumanEval.jsonl.gz', DATA))).toString('utf8'));
    default:
      return mmlu(subjects);
  }
}

/** Pages kept as files named by a hash of their URL; written whole (temp file, rename), so a kill leaves no half page. */
export function dirPageCache(dir: string): PageCache {
  const file = (url: string) => join(dir, `${createHash('sha256').update(url).digest('hex').slice(0, 32)}.json`);
  return {
    get: async (url) => readFile(file(url), 'utf8').catch(() => undefined),
    put: async (url, text) => {
      await mkdir(dir, { recursive: true });
      const tmp = `${file(url)}.${process.pid}.tmp`;
      await writeFile(tmp, text);
      await rename(tmp, file(url));
    },
  };
}

async function fileRows(path: string, shown: string): Promise<SourceRow[]> {
  let bytes: Buffer;
  try {
    bytes = await readFile(path);
  } catch (e) {
    throw new CliError(`--dataset ${shown}: not a built-in set (${BUILT_IN_DATASETS.join(', ')}) and cannot read ${path} (${(e as NodeJS.ErrnoException).code ?? (e as Error).message}).`, 2);
  }
  switch (extname(path).toLowerCase()) {
    case '.jsonl':
    case '.json':
      return jsonlRows(bytes.toString('utf8'));
    case '.csv':
      return csvRows(bytes.toString('utf8'));
    case '.parquet':
      return parquetRows(bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength) as ArrayBuffer);
    default:
      throw new CliError(`--dataset ${shown}: a file must end in .jsonl, .csv or .parquet`, 2);
  }
}

export async function loadDataset(req: DatasetRequest): Promise<LoadedDataset> {
  const window = (tasks: Task[]) => tasks.slice(req.offset, req.limit === undefined ? undefined : req.offset + req.limit);
  if ((BUILT_IN_DATASETS as readonly string[]).includes(req.dataset)) {
    if (req.map) throw new CliError(`--map is for your own files; ${req.dataset} is built in`, 2);
    return { tasks: window(await builtIn(req.dataset, req.subjects)), bad: [] };
  }
  if (req.subjects) throw new CliError('--subjects applies to --dataset mmlu only', 2);
  const map = parseFieldMap(req.map ?? '');
  const hub = parseHubRef(req.dataset);
  let rows: SourceRow[];
  let name: string;
  if (hub) {
    const read = await hubRows(hub, {
      ...(req.hfEndpoint ? { baseUrl: req.hfEndpoint } : {}),
      offset: req.offset,
      ...(req.limit !== undefined ? { limit: req.limit } : {}),
      cache: dirPageCache(join(req.cacheDir, 'hf')),
      ...(req.onProgress ? { onProgress: req.onProgress } : {}),
    });
    rows = read.rows;
    name = `${hub.dataset}:${read.config}:${read.split}`;
  } else {
    rows = await fileRows(req.file ?? resolve(req.cwd, req.dataset), req.dataset);
    name = req.dataset;
  }
  const { tasks, bad } = mapRows(rows, map, { ...(req.kind ? { defaultKind: req.kind } : {}), dataset: name });
  if (bad.length > 0 && !req.skipBad) throw badRowsError(req.dataset, bad, hub || extname(req.dataset) === '.parquet' ? 'row' : 'line');
  return { tasks: hub ? tasks : window(tasks), bad };
}

/** A hash of the items as graded (question, answer, kind, id, in order): what a resumed evaluation must find again. */
export function itemsHash(tasks: readonly Task[]): string {
  const hash = createHash('sha256');
  for (const t of tasks) hash.update(`${JSON.stringify([t.question, t.answer ?? null, t.kind, t.itemId ?? null])}\n`);
  return hash.digest('hex');
}

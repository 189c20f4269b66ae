/**
 * `baton eval --dataset`: a built-in set from data/ (core/bench's BUILT_IN_DATASETS), the held-out questions of a
 * built-in task set (BUILT_IN_TASK_SETS, split by --seed as `baton train --seed` splits it), a file
 * of the user's (.jsonl, .csv, .parquet) through --map, or hf:owner/name[:config[:split]] read through
 * the datasets server, its pages cached on disk under --cache-dir. Bad rows stop the load with their
 * line numbers unless --skip-bad, which reports them. The loading is core/bench's loadDataset, as the
 * Evaluate page's; here are the flags' checks, the files on disk and the page cache.
 */
import { createHash } from 'node:crypto';
import { mkdir, readFile, rename, writeFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import {
  badRowsError,
  BUILT_IN_DATASETS,
  formatOfFile,
  isBuiltInDataset,
  builtInHeldOut,
  isBuiltInTaskSet,
  loadDataset,
  mmluSubjects,
  type DataSource,
  type LoadedDataset,
  type PageCache,
} from '../../core/bench/index.ts';
import type { Task, TaskKind } from '../../core/task.ts';
import { NODE_DATA_FILES } from './data-files.ts';
import { CliError } from '../cli/index.ts';

export interface EvalDataRequest {
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
  /** Splits a built-in task set: its held-out questions are evaluated. */
  seed: number;
  skipBad: boolean;
  cwd: string;
  hfEndpoint?: string;
  cacheDir: string;
  onProgress?: (read: number, total: number) => void;
}

/** Pages kept as files named by a hash of their URL; written whole (temp file, rename), so a kill leaves no half page. */
function dirPageCache(dir: string): PageCache {
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

/** What the flags name, checked as flags: a built-in set, a Hub dataset, or the user's file (read here). */
async function sourceOf(req: EvalDataRequest): Promise<DataSource> {
  if (isBuiltInDataset(req.dataset)) {
    if (req.map) throw new CliError(`--map is for your own files; ${req.dataset} is built in`, 2);
    if (!req.subjects) return { from: 'builtin', name: req.dataset };
    if (req.dataset !== 'mmlu') throw new CliError('--subjects applies to --dataset mmlu only', 2);
    // Checked here as well as in the loader, so the error names the flag and exits as a usage error.
    const all = await mmluSubjects(NODE_DATA_FILES);
    const unknown = req.subjects.filter((s) => !all.includes(s));
    if (unknown.length) throw new CliError(`--subjects: no MMLU subject ${unknown.join(', ')} (e.g. ${all.slice(0, 4).join(', ')}, ...)`, 2);
    return { from: 'builtin', name: 'mmlu', subjects: req.subjects };
  }
  if (req.subjects) throw new CliError('--subjects applies to --dataset mmlu only', 2);
  const mapping = { map: req.map ?? '', ...(req.kind ? { kind: req.kind } : {}) };
  if (req.dataset.startsWith('hf:')) return { from: 'hub', dataset: req.dataset.slice(3), ...mapping };
  const path = req.file ?? resolve(req.cwd, req.dataset);
  let bytes: Uint8Array;
  try {
    bytes = await readFile(path);
  } catch (e) {
    throw new CliError(
      `--dataset ${req.dataset}: not a built-in set (${BUILT_IN_DATASETS.join(', ')}) and cannot read ${path} (${(e as NodeJS.ErrnoException).code ?? (e as Error).message}).`,
      2,
    );
  }
  const format = formatOfFile(path);
  if (!format) throw new CliError(`--dataset ${req.dataset}: a file must end in .jsonl, .csv or .parquet`, 2);
  return { from: 'file', name: req.dataset, format, bytes, ...mapping };
}

/** The request's tasks; bad rows stop the load with their lines unless --skip-bad, which returns them. */
export async function loadEvalData(req: EvalDataRequest): Promise<LoadedDataset> {
  if (isBuiltInTaskSet(req.dataset)) {
    if (req.map || req.subjects) throw new CliError(`--map and --subjects are for other data; ${req.dataset} is a built-in task set`, 2);
    const tasks = await builtInHeldOut(req.dataset, NODE_DATA_FILES, {
      seed: req.seed,
      offset: req.offset,
      ...(req.limit !== undefined ? { limit: req.limit } : {}),
    });
    return { tasks, bad: [], unit: 'line' };
  }
  const data = await sourceOf(req);
  const hub = {
    ...(req.hfEndpoint ? { baseUrl: req.hfEndpoint } : {}),
    cache: dirPageCache(join(req.cacheDir, 'hf')),
    ...(req.onProgress ? { onProgress: req.onProgress } : {}),
  };
  const loaded = await loadDataset({ data, offset: req.offset, ...(req.limit !== undefined ? { limit: req.limit } : {}) }, { files: NODE_DATA_FILES, hub });
  if (loaded.bad.length > 0 && !req.skipBad) throw badRowsError(req.dataset, loaded.bad, loaded.unit);
  return loaded;
}

/** A hash of the items as graded (question, answer, kind, id, in order): what a resumed evaluation must find again. */
export function itemsHash(tasks: readonly Task[]): string {
  const hash = createHash('sha256');
  for (const t of tasks) hash.update(`${JSON.stringify([t.question, t.answer ?? null, t.kind, t.itemId ?? null])}\n`);
  return hash.digest('hex');
}

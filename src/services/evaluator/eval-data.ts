/**
 * The Evaluate page's items, read in the evaluator worker by core/bench's loadDataset, as `baton eval`
 * reads them under Node. Here is only what the tab does its own way: the built-in sets' files are chunks
 * of their own, each loaded only when its set is chosen (HumanEval, gzipped, is fetched as an asset), the
 * user's file comes as bytes beside the settings, Hub pages are cached in IndexedDB by the caller, and a
 * recorded pool's questions are its source's held-out ones, read as the Train page reads them (services/recorded).
 */
import { badRowsError, lazyDataFiles, loadDataset, type DatasetHost, type LoadedDataset } from '../../core/bench/datasets/index.ts';
import { builtInHeldOut } from '../../core/bench/task-sets/index.ts';
import { BatonError } from '../../core/errors/index.ts';
import { RECORDED_POOLS } from '../../core/providers/replay/index.ts';
import { recordedFiles } from '../recorded/index.ts';
import type { EvalSettings } from './api.ts';

const DATA = '../../../data/';
const HUMANEVAL = new URL('../../../data/humaneval/HumanEval.jsonl.gz', import.meta.url);

async function fetchBytes(url: URL): Promise<Uint8Array> {
  const response = await fetch(url);
  if (!response.ok) throw new BatonError({ code: 'data/unreachable', message: `Could not read ${url.pathname} (${response.status}).` });
  return new Uint8Array(await response.arrayBuffer());
}

export const evalDataFiles = lazyDataFiles(
  {
    ...import.meta.glob<string>(
      ['../../../data/gsm8k/test.jsonl', '../../../data/math500/test.jsonl', '../../../data/aime2024/test.jsonl', '../../../data/mmlu/test/*_test.csv'],
      {
        query: '?raw',
        import: 'default',
      },
    ),
    [`${DATA}humaneval/HumanEval.jsonl.gz`]: () => fetchBytes(HUMANEVAL),
  },
  DATA,
);

export interface LoadOptions {
  /** The user's file, for a 'file' source. */
  file?: ArrayBuffer;
  hub?: DatasetHost['hub'];
}

/** The items of the settings' data, in their window (offset, limit), and the bad rows found; the seed splits a recorded pool's questions (0 without, as baton eval's). */
export async function loadItems(
  s: Pick<EvalSettings, 'data' | 'offset' | 'limit'> & Partial<Pick<EvalSettings, 'seed'>>,
  options: LoadOptions = {},
): Promise<LoadedDataset> {
  const { file, hub } = options;
  const d = s.data;
  if (d.from === 'recorded') {
    const window = { seed: s.seed ?? 0, offset: s.offset, ...(s.limit !== undefined ? { limit: s.limit } : {}) };
    return { tasks: await builtInHeldOut(RECORDED_POOLS[d.pool].source, recordedFiles, window), bad: [], unit: 'line' };
  }
  if (d.from === 'file' && !file)
    throw new BatonError({ code: 'run/config', message: `Pick the file ${d.name} again: its rows are read when the evaluation starts.` });
  const data = d.from === 'file' ? { ...d, bytes: file! } : d;
  return loadDataset({ data, offset: s.offset, ...(s.limit !== undefined ? { limit: s.limit } : {}) }, { files: evalDataFiles, ...(hub ? { hub } : {}) });
}

/** The error a start with bad rows (and no "leave them out") ends in, in the page's words. */
export const badRowsOnPage = (source: string, items: LoadedDataset) =>
  badRowsError(source, items.bad, items.unit, 'change the field mapping, or tick "Leave bad rows out" to evaluate the rest');

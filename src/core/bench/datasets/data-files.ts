/**
 * The files Baton ships in data/, read through a host's DataFiles: Node reads them from disk, the tab
 * from chunks its bundler split off (so a set loads only when it is chosen). Which set is which files is
 * said here once; a host only adapts the reads. Tests: test/unit/core/bench/datasets/data-files.test.ts.
 */
import { BatonError } from '../../errors/index.ts';
import {
  mergeReplayTables,
  parseRecordedModels,
  parseRecordedSet,
  parseRouteLlmCsv,
  recordedReplayTable,
  recordedSourceOf,
  type RecordedModel,
  type RecordedQuestion,
  type RecordedSource,
  type RecordedSourceData,
  type ReplayTable,
} from '../../providers/replay/index.ts';
import type { Task } from '../../task.ts';
import type { BuiltInDataset } from './built-in.ts';
import { loadAime, loadGsm8k, loadHumanEval, loadMath500, loadMmluCsv } from './loaders.ts';

/** A host's view of data/: paths are relative to it ('gsm8k/test.jsonl'). */
export interface DataFiles {
  /** A file's text, or its bytes (a gzipped file is unpacked by the reader). */
  read(path: string): Promise<string | Uint8Array>;
  /** The names of the files in a folder ('mmlu/test'). */
  list(folder: string): Promise<string[]>;
}

/**
 * DataFiles over lazy loaders keyed by path (a bundler's glob import), the keys starting with `root`.
 * It holds only the files given: a host bundles what it reads.
 */
export function lazyDataFiles(loaders: Record<string, () => Promise<string | Uint8Array>>, root: string): DataFiles {
  return {
    read: async (path) => {
      const load = loaders[root + path];
      if (!load) throw new BatonError({ code: 'data/not-found', message: `data/${path} is not among the data files bundled here.` });
      return load();
    },
    list: async (folder) =>
      Object.keys(loaders)
        .filter((p) => p.startsWith(`${root}${folder}/`) && !p.slice(root.length + folder.length + 1).includes('/'))
        .map((p) => p.slice(p.lastIndexOf('/') + 1)),
  };
}

/**
 * A data file's text. Some static servers (vite preview among them) send a .gz with Content-Encoding:
 * gzip, so the browser has already unpacked it: only bytes that still start with gzip's magic are unpacked.
 */
export async function dataText(files: DataFiles, path: string): Promise<string> {
  const content = await files.read(path);
  if (typeof content === 'string') return content;
  if (content[0] !== 0x1f || content[1] !== 0x8b) return new TextDecoder().decode(content);
  return new Response(new Blob([content as Uint8Array<ArrayBuffer>]).stream().pipeThrough(new DecompressionStream('gzip'))).text();
}

const MMLU = 'mmlu/test';

/** MMLU's subjects, sorted: one test file each. */
export async function mmluSubjects(files: DataFiles): Promise<string[]> {
  return (await files.list(MMLU))
    .filter((f) => f.endsWith('_test.csv'))
    .map((f) => f.replace(/_test\.csv$/, ''))
    .sort();
}

/** The questions of the MMLU subjects named, in that order (all of them, sorted, when none are). */
async function readMmlu(files: DataFiles, subjects: readonly string[] | undefined): Promise<Task[]> {
  const all = await mmluSubjects(files);
  const unknown = (subjects ?? []).filter((s) => !all.includes(s));
  if (unknown.length) throw new BatonError({ code: 'run/config', message: `No MMLU subject ${unknown.join(', ')} (e.g. ${all.slice(0, 4).join(', ')}, ...).` });
  const chosen = subjects?.length ? [...new Set(subjects)] : all;
  return (await Promise.all(chosen.map(async (s) => loadMmluCsv(await dataText(files, `${MMLU}/${s}_test.csv`), s)))).flat();
}

/** A built-in set's tasks, in file order; `subjects` picks MMLU's (all without). */
export async function builtInTasks(name: BuiltInDataset, files: DataFiles, subjects?: readonly string[]): Promise<Task[]> {
  switch (name) {
    case 'gsm8k':
      return loadGsm8k(await dataText(files, 'gsm8k/test.jsonl'));
    case 'math500':
      return loadMath500(await dataText(files, 'math500/test.jsonl'));
    case 'aime2024':
      return loadAime(await dataText(files, 'aime2024/test.jsonl'));
    case 'humaneval':
      return loadHumanEval(await dataText(files, 'humaneval/HumanEval.jsonl.gz'));
    case 'mmlu':
      return readMmlu(files, subjects);
  }
}

const ROUTELLM = 'routellm';

/** RouteLLM's records Baton ships: GSM8K with full responses, the MMLU subjects with correctness only. */
async function readRouteLlm(files: DataFiles): Promise<ReplayTable> {
  const mmlu = (await files.list(`${ROUTELLM}/mmlu`))
    .filter((f) => f.endsWith('.csv'))
    .sort()
    .map((f) => `mmlu/${f}`);
  const tables = ['gsm8k_responses.csv', ...mmlu].map(async (f) => parseRouteLlmCsv(await dataText(files, `${ROUTELLM}/${f}`), `data/${ROUTELLM}/${f}`));
  return mergeReplayTables(await Promise.all(tables));
}

/** A recorded source's models (data/<source>/models.json). */
export async function readRecordedModels(files: DataFiles, source: RecordedSource): Promise<RecordedModel[]> {
  return parseRecordedModels(await dataText(files, `${source}/models.json`), `data/${source}/models.json`);
}

/** A recorded source's questions with every model's record, by set (the file's name: 'gsm', 'arc-challenge'), sets sorted. */
export async function readRecordedSets(files: DataFiles, source: RecordedSource): Promise<{ set: string; questions: RecordedQuestion[] }[]> {
  const names = (await files.list(source)).filter((f) => /\.jsonl(\.gz)?$/.test(f)).sort();
  if (names.length === 0) throw new BatonError({ code: 'data/not-found', message: `data/${source} holds no recorded answers (<set>.jsonl or .jsonl.gz).` });
  return Promise.all(
    names.map(async (f) => ({
      set: f.replace(/\.jsonl(\.gz)?$/, ''),
      questions: parseRecordedSet(await dataText(files, `${source}/${f}`), `data/${source}/${f}`),
    })),
  );
}

export async function readRecordedSource(files: DataFiles, source: RecordedSource): Promise<RecordedSourceData> {
  const [models, sets] = await Promise.all([readRecordedModels(files, source), readRecordedSets(files, source)]);
  return { models, sets };
}

/** A recorded source's replay table: dollars as recorded for its models without a list price. */
export function recordedSourceTable(source: RecordedSource, { models, sets }: RecordedSourceData): ReplayTable {
  return recordedReplayTable(
    source,
    sets.flatMap((s) => s.questions),
    new Set(models.filter((m) => m.price === null).map((m) => m.id)),
  );
}

/**
 * The recorded answers replay workers read, for the replay models named: RouteLLM's (data/routellm) for its
 * columns, and each recorded source (zeroeval, routerbench) whose `<source>/` columns are named. RouteLLM's
 * alone when no models are named.
 */
export async function readShippedReplay(files: DataFiles, models?: readonly string[]): Promise<ReplayTable> {
  const sources = new Set(models?.map(recordedSourceOf) ?? [undefined]);
  const tables = [...sources].map(async (source) =>
    source === undefined ? readRouteLlm(files) : recordedSourceTable(source, await readRecordedSource(files, source)),
  );
  return mergeReplayTables(await Promise.all(tables));
}

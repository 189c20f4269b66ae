// The repository's data/ folder (the datasets Baton ships, see data/README.md): the one place tests and
// benches read benchmark data from, so a fresh clone has everything they need.
import { readdirSync, readFileSync } from 'node:fs';
import { gunzipSync } from 'node:zlib';

const DATA_DIR = new URL('../../data/', import.meta.url);

/** The text of a file under data/, e.g. readData('gsm8k/test.jsonl'). */
export function readData(path: string): string {
  return readFileSync(new URL(path, DATA_DIR), 'utf8');
}

/** The text of a gzipped file under data/, e.g. readGzippedData('humaneval/HumanEval.jsonl.gz'). */
export function readGzippedData(path: string): string {
  return gunzipSync(readFileSync(new URL(path, DATA_DIR))).toString('utf8');
}

/** The file names in a folder under data/, sorted, e.g. listData('mmlu/test'). */
export function listData(folder: string): string[] {
  return readdirSync(new URL(`${folder}/`, DATA_DIR)).sort();
}

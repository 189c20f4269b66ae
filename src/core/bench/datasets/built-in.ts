/**
 * The data sets Baton ships in data/, and the formats of the user's own files, by name: constants only,
 * so the Evaluate page's first paint carries them (through services/evaluator/api.ts) without
 * the loaders.
 */

/** In the order lists show them (`baton eval --help`, the Evaluate page's choice). */
export const BUILT_IN_DATASETS = ['gsm8k', 'math500', 'mmlu', 'aime2024', 'humaneval'] as const;
export type BuiltInDataset = (typeof BUILT_IN_DATASETS)[number];

export const isBuiltInDataset = (name: string): name is BuiltInDataset => (BUILT_IN_DATASETS as readonly string[]).includes(name);

export type UserFileFormat = 'jsonl' | 'csv' | 'parquet';

/** The file format its name says, or undefined for a name Baton reads no rows from. */
export function formatOfFile(name: string): UserFileFormat | undefined {
  const ext = name.toLowerCase().split('.').pop();
  return ext === 'jsonl' || ext === 'json' ? 'jsonl' : ext === 'csv' ? 'csv' : ext === 'parquet' ? 'parquet' : undefined;
}

/**
 * RouteLLM CSV files merged into a replay table. Only replay-store.ts imports this, and only when the user imports
 * files, so the Workers page's first paint (which reads the stored table) leaves the CSV parser out.
 */
import { mergeReplayTables, type ReplayTable } from './replay-table.ts';
import { parseRouteLlmCsv } from './routellm.ts';

/** `current` and then each file's table, merged: a later file wins on a repeated question. */
export function mergeReplayCsv(current: ReplayTable | undefined, files: { name: string; text: string }[]): ReplayTable {
  return mergeReplayTables([...(current ? [current] : []), ...files.map((f) => parseRouteLlmCsv(f.text, f.name))]);
}

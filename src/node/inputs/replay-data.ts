/**
 * The recorded answers replay workers read: the RouteLLM responses CSVs a command's --replay flags name,
 * or else, where the pool has replay workers, the records Baton ships for their models: data/routellm (GSM8K
 * with full responses, the 57 MMLU subjects with correctness only), data/zeroeval, data/routerbench.
 */
import { readShippedReplay } from '../../core/bench/index.ts';
import type { WorkerSpec } from '../../core/providers/index.ts';
import { mergeReplayTables, parseRouteLlmCsv, type ReplayTable } from '../../core/providers/replay/index.ts';
import { NODE_DATA_FILES } from './data-files.ts';
import { readTextFlag, texts, type CliIo } from '../cli/index.ts';

/** --replay, repeatable: the CSVs readReplayFlags reads. */
export const REPLAY_FLAG = texts({ arg: 'FILE', help: 'a RouteLLM responses CSV for the pool\'s "replay" workers (repeatable; default: data/routellm)' });

export async function readReplayFlags(io: CliIo, files: readonly string[] = [], specs: readonly WorkerSpec[] = []): Promise<ReplayTable | undefined> {
  if (files.length > 0) return mergeReplayTables(await Promise.all(files.map(async (f) => parseRouteLlmCsv(await readTextFlag(io, 'replay', f), f))));
  const replayed = specs.filter((s) => s.provider === 'replay').map((s) => s.model);
  return replayed.length > 0 ? readShippedReplay(NODE_DATA_FILES, replayed) : undefined;
}

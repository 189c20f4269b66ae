/**
 * The recorded answers replay workers read: the RouteLLM responses CSVs a command's --replay flags name,
 * or else, where the pool has replay workers, the records Baton ships for their models: data/routellm (GSM8K
 * with full responses, the 57 MMLU subjects with correctness only), data/zeroeval, data/routerbench.
 */
import { readShippedReplay } from '../../core/bench/index.ts';
import type { WorkerSpec } from '../../core/providers/index.ts';
import { mergeReplayTables, parseRouteLlmCsv, recordedSourceOf, type ReplayTable } from '../../core/providers/replay/index.ts';
import { NODE_DATA_FILES } from './data-files.ts';
import { readTextFlag, texts, type CliIo } from '../cli/index.ts';

/** --replay, repeatable: the CSVs readReplayFlags reads. */
export const REPLAY_FLAG = texts({ arg: 'FILE', help: 'a RouteLLM responses CSV for the pool\'s "replay" workers (repeatable; default: data/routellm)' });

export async function readReplayFlags(io: CliIo, files: readonly string[] = [], specs: readonly WorkerSpec[] = []): Promise<ReplayTable | undefined> {
  const replayed = specs.filter((s) => s.provider === 'replay').map((s) => s.model);
  if (files.length === 0) return replayed.length > 0 ? readShippedReplay(NODE_DATA_FILES, replayed) : undefined;
  // The CSVs stand in for RouteLLM's records; a recorded pool's workers still read theirs from data/.
  const recorded = replayed.filter((m) => recordedSourceOf(m) !== undefined);
  const tables = files.map(async (f) => parseRouteLlmCsv(await readTextFlag(io, 'replay', f), f));
  return mergeReplayTables(await Promise.all([...tables, ...(recorded.length > 0 ? [readShippedReplay(NODE_DATA_FILES, recorded)] : [])]));
}

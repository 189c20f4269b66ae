/**
 * The recorded answers replay workers read: the RouteLLM responses CSVs a command's --replay flags name,
 * or else, where the pool has replay workers, the RouteLLM records Baton ships in data/routellm (GSM8K
 * with full responses, the 57 MMLU subjects with correctness only).
 */
import { readdir, readFile } from 'node:fs/promises';
import type { WorkerSpec } from '../core/providers/index.ts';
import { mergeReplayTables, parseRouteLlmCsv, type ReplayTable } from '../core/providers/replay/index.ts';
import { readTextFlag, type CliIo } from './io.ts';

const ROUTELLM = new URL('../../data/routellm/', import.meta.url);

export async function readShippedReplay(): Promise<ReplayTable> {
  const mmlu = (await readdir(new URL('mmlu/', ROUTELLM))).filter((f) => f.endsWith('.csv')).sort().map((f) => `mmlu/${f}`);
  const files = ['gsm8k_responses.csv', ...mmlu];
  return mergeReplayTables(await Promise.all(files.map(async (f) => parseRouteLlmCsv(await readFile(new URL(f, ROUTELLM), 'utf8'), `data/routellm/${f}`))));
}

export async function readReplayFlags(io: CliIo, files: readonly string[] = [], specs: readonly WorkerSpec[] = []): Promise<ReplayTable | undefined> {
  if (files.length > 0) return mergeReplayTables(await Promise.all(files.map(async (f) => parseRouteLlmCsv(await readTextFlag(io, 'replay', f), f))));
  return specs.some((s) => s.provider === 'replay') ? readShippedReplay() : undefined;
}

/**
 * A training run's JSONL logs after a resume: lines of steps past the checkpoint are dropped, as the
 * resumed run writes those steps again (identically), so each step appears once.
 */
import { readFile, writeFile } from 'node:fs/promises';
import type { Episode } from '../../core/episodes/index.ts';

/** The training step an episode belongs to, from its "step:N" tag (0 when untagged). */
export const stepOfEpisode = (e: Pick<Episode, 'tags'>) => Number(e.tags.find((t) => t.startsWith('step:'))?.slice(5) ?? 0);

/** Keeps the lines of `file` (JSONL) whose step, by `stepOf`, is at most `step`; a missing file stays missing. */
export async function truncateLog(file: string, step: number, stepOf: (line: unknown) => number): Promise<void> {
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch {
    return;
  }
  const kept = text.split('\n').filter((line) => line.trim() !== '' && stepOf(JSON.parse(line)) <= step);
  await writeFile(file, kept.map((line) => `${line}\n`).join(''));
}

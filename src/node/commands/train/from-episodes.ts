/**
 * `baton train --from-episodes FILE`: offline GRPO on stored groups (core/rl's groupsFromEpisodes and
 * runOfflineTraining) with the session `baton train` opens: the same checkpoints, --resume, metrics.jsonl
 * (one OfflineStepMetrics line a step) and final adapter or model; no pool is called and no episode written.
 */
import { appendFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import {
  groupsFromEpisodes,
  offlineGrpoConfigOf,
  runOfflineTraining,
  type EpisodeGroup,
  type EpisodeTokenizer,
  type GrpoCheckpoint,
  type OfflineStepMetrics,
  type OfflineTrainingSession,
  type TrainingRecipe,
} from '../../../core/rl/index.ts';
import { CliError, readTextFlag, type CliIo } from '../../cli/index.ts';
import { checkpointDir } from '../../stores/index.ts';

/** The file's groups, tokenised as the Conductor tokenises; a CliError when none can teach anything. */
export async function readEpisodeGroups(io: CliIo, file: string, tokenizer: EpisodeTokenizer): Promise<EpisodeGroup[]> {
  const read = await groupsFromEpisodes(await readTextFlag(io, 'from-episodes', file), file, tokenizer);
  const r = read.report;
  io.stderr(
    `--from-episodes: ${r.episodes} episodes, ${r.groups} groups to learn from; left out: ${r.singletons} single-member and ${r.equalRewards} equal-reward groups, ` +
      `${r.infraFailed} infrastructure failures, ${r.ungrouped} without a group, ${r.unrewarded} without a reward; ${r.retokenised} completions tokenised from their text\n`,
  );
  if (read.groups.length === 0) throw new CliError(`--from-episodes ${file}: no group to learn from (groups need two or more members whose rewards differ)`, 2);
  return read.groups;
}

export async function trainFromEpisodes(
  recipe: TrainingRecipe,
  session: OfflineTrainingSession,
  options: { out: string; io: CliIo; signal: AbortSignal; resume?: GrpoCheckpoint<OfflineStepMetrics> },
): Promise<{ metrics: OfflineStepMetrics[]; step: number; stopped: boolean }> {
  const { out, io, resume } = options;
  const { steps } = offlineGrpoConfigOf(recipe, session.groups.length);
  const metricsFile = join(out, 'metrics.jsonl');
  await writeFile(metricsFile, (resume?.metrics ?? []).map((m) => `${JSON.stringify(m)}\n`).join(''));
  const lines: Promise<void>[] = [];
  const started = performance.now();
  const firstStep = resume?.step ?? 0;
  const result = await runOfflineTraining(recipe, session, {
    ...(resume ? { resume } : {}),
    checkpoints: checkpointDir<OfflineStepMetrics>(join(out, 'checkpoints')),
    signal: options.signal,
    onStep: (m) => {
      lines.push(appendFile(metricsFile, `${JSON.stringify(m)}\n`));
      const msPerStep = (performance.now() - started) / (m.step - firstStep);
      const left = Math.round((msPerStep * (steps - m.step)) / 1000);
      io.stderr(
        `step ${m.step}/${steps}  groups ${m.groups.join(',')}  reward ${m.rewardMean.toFixed(3)} ± ${m.rewardStd.toFixed(3)}  loss ${m.loss.toFixed(4)}  ` +
          `grad norm ${m.gradNorm.toFixed(3)}${m.skipped ? `  no update: ${m.skipped}` : ''}  ${(m.timeMs / 1000).toFixed(1)} s  ~${left}s left\n`,
      );
    },
  });
  await Promise.all(lines);
  return result;
}

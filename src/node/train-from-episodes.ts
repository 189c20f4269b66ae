/**
 * `baton train --from-episodes FILE`: offline GRPO on stored groups (core/rl's groupsFromEpisodes and
 * runOfflineGrpo) with the trainer `baton train` made: the same checkpoints, --resume, metrics.jsonl
 * (one OfflineStepMetrics line a step) and final adapter or model; no pool is called and no episode written.
 */
import { appendFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { groupsFromEpisodes, runOfflineGrpo, type EpisodeGroup, type EpisodeGroupsReport, type GrpoCheckpoint, type OfflineStepMetrics, type TrainablePolicy, type TrainStepOptions } from '../core/rl/index.ts';
import type { EnginePolicy } from '../engine/index.ts';
import type { Tokenizer } from '../engine/tokenizer/index.ts';
import { checkpointDir } from './checkpoint-dir.ts';
import { CliError, readTextFlag, type CliIo } from './io.ts';

export interface EpisodeGroups {
  groups: EpisodeGroup[];
  report: EpisodeGroupsReport;
}

/** The file's groups, tokenised as the policy tokenises; a CliError when none can teach anything. */
export async function readEpisodeGroups(io: CliIo, file: string, sampler: EnginePolicy, tokenizer: Tokenizer): Promise<EpisodeGroups> {
  const read = await groupsFromEpisodes(await readTextFlag(io, 'from-episodes', file), file, { promptIds: (messages, continueFinal) => sampler.promptIds(messages, continueFinal), encode: (text) => tokenizer.encode(text) });
  const r = read.report;
  io.stderr(
    `--from-episodes: ${r.episodes} episodes, ${r.groups} groups to learn from; left out: ${r.singletons} single-member and ${r.equalRewards} equal-reward groups, ` +
      `${r.infraFailed} infrastructure failures, ${r.ungrouped} without a group, ${r.unrewarded} without a reward; ${r.retokenised} completions tokenised from their text\n`,
  );
  if (read.groups.length === 0) throw new CliError(`--from-episodes ${file}: no group to learn from (groups need two or more members whose rewards differ)`, 2);
  return read;
}

/** The longest sequence the groups hold, for the memory preflight. */
export const longestGroupSequence = (groups: readonly EpisodeGroup[]) => Math.max(...groups.map((g) => g.promptIds.length + Math.max(...g.completions.map((c) => c.ids.length))));

export interface OfflineRun {
  steps: number;
  questions: number;
  mu: number;
  seed: number;
  checkpointEvery: number;
  train: Omit<TrainStepOptions, 'signal'>;
}

export async function trainFromEpisodes(
  run: OfflineRun,
  read: EpisodeGroups,
  policy: TrainablePolicy,
  options: { out: string; io: CliIo; signal: AbortSignal; resume?: GrpoCheckpoint<OfflineStepMetrics> },
): Promise<{ metrics: OfflineStepMetrics[]; step: number; stopped: boolean }> {
  const { out, io, resume } = options;
  const metricsFile = join(out, 'metrics.jsonl');
  await writeFile(metricsFile, (resume?.metrics ?? []).map((m) => `${JSON.stringify(m)}\n`).join(''));
  const lines: Promise<void>[] = [];
  const started = performance.now();
  const firstStep = resume?.step ?? 0;
  const result = await runOfflineGrpo(
    { steps: run.steps, groupsPerStep: run.questions, iterations: run.mu, train: run.train, seed: run.seed, checkpointEvery: run.checkpointEvery },
    {
      policy,
      groups: read.groups,
      ...(resume ? { resume } : {}),
      checkpoints: checkpointDir<OfflineStepMetrics>(join(out, 'checkpoints')),
      signal: options.signal,
      onStep: (m) => {
        lines.push(appendFile(metricsFile, `${JSON.stringify(m)}\n`));
        const msPerStep = (performance.now() - started) / (m.step - firstStep);
        const left = Math.round((msPerStep * (run.steps - m.step)) / 1000);
        io.stderr(
          `step ${m.step}/${run.steps}  groups ${m.groups.join(',')}  reward ${m.rewardMean.toFixed(3)} ± ${m.rewardStd.toFixed(3)}  loss ${m.loss.toFixed(4)}  ` +
            `grad norm ${m.gradNorm.toFixed(3)}${m.skipped ? `  no update: ${m.skipped}` : ''}  ${(m.timeMs / 1000).toFixed(1)} s  ~${left}s left\n`,
        );
      },
    },
  );
  await Promise.all(lines);
  return result;
}

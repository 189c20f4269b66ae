/**
 * `baton train`'s run, once train.ts has its settings (from flags, --config, or a resumed run's
 * config.json): core/rl's training session over Baton's engine on Dawn, with Node's ports filled in (the
 * model directory, the pool and task files, the episodes file for --from-episodes) and its sinks (files
 * under OUT and a progress line per step on stderr); at the end, unless stopped, OUT/adapter/ (PEFT) or
 * OUT/model/ (--full) with the conductor.json of the format it trained in.
 */
import { setMaxListeners } from 'node:events';
import { appendFile, mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { episodeToLine, type Episode } from '../../../core/episodes/index.ts';
import {
  isWeightsState,
  openOfflineTrainingSession,
  openTrainingSession,
  runTraining,
  TRAINED_FORMAT_FILE,
  trainedFormatJson,
  trainedFormatOf,
  type GrpoCheckpoint,
  type GrpoStepMetrics,
  type LoadedConductor,
  type OfflineStepMetrics,
  type TrainablePolicy,
  type TrainingRecipe,
  type TrainingState,
} from '../../../core/rl/index.ts';
import type { Task } from '../../../core/task.ts';
import { filesFromDir } from '../../../engine/model/files-node.ts';
import { ADAPTER_CONFIG, ADAPTER_WEIGHTS, readPeftAdapter } from '../../../engine/model/index.ts';
import { trainingEngine, type EngineTrainingTypes } from '../../../engine/train/index.ts';
import { readTextFlag, type CliIo } from '../../cli/index.ts';
import { buildPool, isBuiltInTaskSet, parseTaskFile, readBuiltInTaskSet, readPoolFlag, readReplayFlags } from '../../inputs/index.ts';
import { openNodeModel } from '../../models/index.ts';
import { NodeLocalModels } from '../../runtimes/index.ts';
import { createNodeCodeRunner } from '../../sandbox/index.ts';
import { checkpointDir, readLatestCheckpoint, stepOfEpisode, truncateLog, writeModelDir } from '../../stores/index.ts';
import { readEpisodeGroups, trainFromEpisodes } from './from-episodes.ts';

/** Everything a run depends on, kept in OUT/config.json so that --resume runs the same run: the recipe, and where its parts are. */
export interface TrainSettings extends TrainingRecipe {
  modelDir: string;
  loraDir?: string;
  weights?: 'f32' | 'f16' | 'int4';
  /** Offline GRPO on this episodes file's groups (from-episodes.ts); steps 0: one pass over them. */
  fromEpisodes?: string;
  pool: string;
  /** RouteLLM CSVs replay workers read (default: the records in data/routellm). */
  replay?: string[];
  tasks: string;
  heldOut?: string;
}

/** The model directory on this machine's GPU, with the adapter of --lora to continue. */
async function loadConductor(s: TrainSettings): Promise<LoadedConductor<EngineTrainingTypes>> {
  const loaded = await openNodeModel({ modelDir: s.modelDir, ...(s.weights ? { weights: s.weights } : {}), withTokenizer: true });
  try {
    const adapter = s.loraDir ? await readPeftAdapter(filesFromDir(s.loraDir), loaded.model.config) : undefined;
    return { name: s.modelDir, model: loaded.model, tokenizer: loaded.tokenizer!, ...(adapter ? { adapter } : {}), close: () => loaded.close() };
  } catch (e) {
    loaded.close();
    throw e;
  }
}

async function taskSets(s: TrainSettings, io: CliIo): Promise<{ train: Task[]; heldOut: Task[] }> {
  const file = async (flag: string, path: string) => parseTaskFile(await readTextFlag(io, flag, path), path);
  const sets = isBuiltInTaskSet(s.tasks) ? await readBuiltInTaskSet(s.tasks, s.seed) : { train: await file('tasks', s.tasks), heldOut: [] };
  return s.heldOut ? { train: sets.train, heldOut: await file('held-out', s.heldOut) } : sets;
}

const clock = (ms: number) => {
  const total = Math.round(ms / 1000);
  return total >= 60 ? `${Math.floor(total / 60)}m${String(total % 60).padStart(2, '0')}s` : `${total}s`;
};

function progressLine(m: GrpoStepMetrics, s: TrainSettings, msPerStep: number): string {
  const parts = [
    `step ${m.step}/${s.steps}`,
    `reward ${m.rewardMean.toFixed(3)} ± ${m.rewardStd.toFixed(3)}`,
    `accuracy ${m.accuracy.toFixed(2)}`,
    `format ${m.formatRate.toFixed(2)}`,
    ...(m.choiceShares ? [`choices ${m.choiceShares.map((x) => x.toFixed(2)).join('/')}`] : []),
    ...(m.heldOutAccuracy === undefined ? [] : [`held-out ${m.heldOutAccuracy.toFixed(2)}`]),
    ...(m.skipped ? [`no update: ${m.skipped}`] : []),
    `${(m.timeMs / 1000).toFixed(1)} s`,
    `~${clock(msPerStep * (s.steps - m.step))} left`,
  ];
  return `${parts.join('  ')}\n`;
}

/** Runs `train` on the session, Ctrl-C stopping it after a checkpoint of the last finished step; then its trained state, and the session closed. */
async function trainToEnd<R>(
  session: { policy: TrainablePolicy; close(): void },
  train: (signal: AbortSignal) => Promise<R>,
): Promise<{ result: R; state: TrainingState }> {
  const controller = new AbortController();
  // Every rollout of a step (questions x group x workflow steps) listens to it at once: not a leak.
  setMaxListeners(0, controller.signal);
  const stop = () => controller.abort();
  process.once('SIGINT', stop);
  try {
    const result = await train(controller.signal);
    return { result, state: await session.policy.exportState() };
  } finally {
    process.off('SIGINT', stop);
    session.close();
  }
}

const onDawn = (s: TrainSettings) => ({ engine: trainingEngine, loadConductor: () => loadConductor(s) });

/** GRPO on the pool: OUT/metrics.jsonl and OUT/episodes.jsonl, restarted from the checkpoint resumed (its later steps run again, identically). */
async function trainOnPool(s: TrainSettings, out: string, io: CliIo, resume: GrpoCheckpoint | undefined, local: NodeLocalModels) {
  const metricsFile = join(out, 'metrics.jsonl');
  const episodesFile = join(out, 'episodes.jsonl');
  await writeFile(metricsFile, (resume?.metrics ?? []).map((m) => `${JSON.stringify(m)}\n`).join(''));
  if (resume) await truncateLog(episodesFile, resume.step, (e) => stepOfEpisode(e as Episode));
  const session = await openTrainingSession(s, {
    ...onDawn(s),
    pool: async () => {
      const specs = await readPoolFlag(io, s.pool);
      return buildPool(specs, io.env, await readReplayFlags(io, s.replay, specs), s.seed, { local });
    },
    tasks: () => taskSets(s, io),
  });
  // Code tasks are graded by running the answers in Pyodide worker threads.
  const codeRunner = [...session.tasks.train, ...session.tasks.heldOut].some((t) => t.kind === 'code') ? createNodeCodeRunner() : undefined;
  const started = performance.now();
  const firstStep = resume?.step ?? 0;
  const lines: Promise<void>[] = [];
  try {
    return await trainToEnd(session, (signal) =>
      runTraining(s, session, {
        ...(resume ? { resume } : {}),
        ...(codeRunner ? { codeRunner } : {}),
        checkpoints: checkpointDir(join(out, 'checkpoints')),
        signal,
        onEpisodes: (episodes) => void lines.push(appendFile(episodesFile, episodes.map((e) => `${episodeToLine(e)}\n`).join(''))),
        onStep: (m) => {
          lines.push(appendFile(metricsFile, `${JSON.stringify(m)}\n`));
          io.stderr(progressLine(m, s, (performance.now() - started) / (m.step - firstStep)));
        },
      }),
    );
  } finally {
    await Promise.all(lines);
    await codeRunner?.close();
  }
}

/** Offline GRPO on the groups of --from-episodes (from-episodes.ts). */
async function trainOffline(s: TrainSettings, file: string, out: string, io: CliIo, resume: GrpoCheckpoint<OfflineStepMetrics> | undefined) {
  const session = await openOfflineTrainingSession(s, { ...onDawn(s), groups: (tokenizer) => readEpisodeGroups(io, file, tokenizer) });
  const { result, state } = await trainToEnd(session, (signal) => trainFromEpisodes(s, session, { out, io, signal, ...(resume ? { resume } : {}) }));
  return { result: { ...result, overBudget: false }, state };
}

/** OUT/adapter/ in PEFT layout, or OUT/model/ for every weight, each with the conductor.json of its format. */
async function writeTrained(out: string, s: TrainSettings, state: TrainingState): Promise<void> {
  const dir = join(out, isWeightsState(state) ? 'model' : 'adapter');
  if (isWeightsState(state)) {
    await writeModelDir(dir, s.modelDir, state.weights);
  } else {
    await mkdir(dir, { recursive: true });
    await writeFile(join(dir, ADAPTER_CONFIG), state.adapterConfig);
    await writeFile(join(dir, ADAPTER_WEIGHTS), state.adapter);
  }
  await writeFile(join(dir, TRAINED_FORMAT_FILE), trainedFormatJson(trainedFormatOf(s)));
}

/** Runs the run in `out` (its config.json written), from its newest checkpoint when `resumed`; returns the exit code. */
export async function runTrain(s: TrainSettings, out: string, io: CliIo, resumed: boolean): Promise<number> {
  const resume = resumed ? await readLatestCheckpoint<unknown>(join(out, 'checkpoints')) : undefined;
  await mkdir(join(out, 'checkpoints'), { recursive: true });
  // Local workers load apart from the Conductor being trained, whose weights change as it learns.
  const local = new NodeLocalModels(io.cwd);
  try {
    const { result, state } =
      s.fromEpisodes === undefined
        ? await trainOnPool(s, out, io, resume as GrpoCheckpoint | undefined, local)
        : await trainOffline(s, s.fromEpisodes, out, io, resume as GrpoCheckpoint<OfflineStepMetrics> | undefined);
    if (!result.stopped) await writeTrained(out, s, state);
    if (result.overBudget) io.stderr(`stopped after step ${result.step}: the --budget of $${s.budgetUsd} is spent\n`);
    const last = result.metrics.at(-1);
    io.stdout(`${JSON.stringify({ out, step: result.step, stopped: result.stopped, overBudget: result.overBudget, ...(last ? { last } : {}) })}\n`);
    return result.stopped ? 130 : 0;
  } finally {
    await local.close();
  }
}

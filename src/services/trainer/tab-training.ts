/**
 * The Train page's run on Baton's engine in the trainer worker: core/rl's training session (the same
 * setup as `baton train`'s) with the tab's ports: the Conductor loaded by the model runtimes'
 * EngineHost on navigator.gpu (the same files, cache and progress), the engine's constructors loaded with
 * the first run or estimate, the pool's workers with the page's keys, and the page's task set. The loop
 * itself is core/rl's runTraining, run by trainer-service.ts.
 */
import {
  CHOICE_TRAINING,
  describeSource,
  trainOnChoices,
  type ChoiceTrainingResult,
  type EngineModelChoice,
  type EngineModelSource,
} from '../../core/conductor/index.ts';
import { episodeStore, type Episode } from '../../core/episodes/index.ts';
import { BatonError } from '../../core/errors/index.ts';
import type { WorkerModel, WorkerSpec } from '../../core/providers/index.ts';
import { loadReplay } from '../../core/providers/replay/index.ts';
import {
  estimateTraining,
  openTrainingSession,
  type LoadedConductor,
  type OfflineStepMetrics,
  type TrainedFormat,
  type TrainingEstimate as Estimate,
  type TrainingSession,
} from '../../core/rl/index.ts';
import type { EngineTrainingTypes, TrainingMemory } from '../../engine/train/index.ts';
import { buildWorker, EngineHost, type LoadProgress } from '../runtimes/index.ts';
import type { TrainingConfig } from './api.ts';
import { recipeOf } from './training-recipe.ts';
import { recordedReplay } from '../recorded/index.ts';
import { trainingTasks } from './training-tasks.ts';

/** `signal` stops a model load in progress (a Pause or Stop while the run starts). */
export type PrepareTraining = (
  config: TrainingConfig,
  keys: Record<string, string>,
  onPhase: (phase: string) => void,
  signal?: AbortSignal,
) => Promise<TrainingSession>;

export type TrainingEstimate = Estimate<TrainingMemory>;

/** "Train on my choices" on a model: what it trained, and the format the model runs in (its conductor.json). */
export type LearnChoices = (
  model: EngineModelSource,
  hooks: { signal: AbortSignal; onPhase(phase: string): void; onStep(m: OfflineStepMetrics, steps: number): void },
) => Promise<{ result: ChoiceTrainingResult; format: TrainedFormat }>;

/** Episodes whose reward the user gave (a pick, a rating), read page by page, oldest first. */
async function userRewarded(): Promise<Episode[]> {
  const store = await episodeStore();
  const found: Episode[] = [];
  let cursor: string | undefined;
  do {
    const page = await store.list({ order: 'oldest', limit: 500, ...(cursor ? { cursor } : {}) });
    found.push(...page.episodes.filter((e) => ['pick', 'rating'].includes(e.reward?.details?.source as string)));
    cursor = page.nextCursor ?? undefined;
  } while (cursor);
  return found;
}

/** The engine model a run trains: f32 on the demo (software GPUs have no f16), the GPU's best otherwise. */
export const modelChoiceOf = (config: Pick<TrainingConfig, 'model'>): EngineModelChoice => ({
  source: config.model,
  weights: config.model.from === 'demo' ? 'f32' : 'auto',
});

/** WebGPU's default per-binding limit: the estimate assumes no more. */
const DEFAULT_BINDING_BYTES = 128 * 2 ** 20;

async function poolOf(specs: readonly WorkerSpec[], keys: Record<string, string>, seed: number): Promise<WorkerModel[]> {
  const replayed = specs.filter((w) => w.provider === 'replay').map((w) => w.model);
  // A recorded pool replays data Baton ships; other replay workers, the records imported on the Workers page.
  const replay = (await recordedReplay(replayed)) ?? (replayed.length > 0 ? (await loadReplay(indexedDB))?.table : undefined);
  // Simulated workers draw from the run's seed, as baton train's pool does.
  return Promise.all(specs.map((spec) => buildWorker(spec.simulated ? { ...spec, simulated: { ...spec.simulated, seed } } : spec, keys, replay)));
}

const MB = 2 ** 20;

/** A model load's progress in words, for the page's phase line. */
function loadPhase(name: string, p: LoadProgress): string {
  if (p.unit === 'items') return `Copying ${name} to the GPU: ${p.loaded} of ${p.total ?? '?'} tensors`;
  return `Downloading ${name}: ${(p.loaded / MB).toFixed(1)}${p.total === undefined ? '' : ` of ${(p.total / MB).toFixed(1)}`} MB`;
}

// The engine's modules load with the first run or estimate, as the Conductor worker's do.
const engine = async () => (await import('../../engine/train/index.ts')).trainingEngine;

export function tabTraining(host = new EngineHost()): {
  prepare: PrepareTraining;
  estimate: (config: TrainingConfig) => Promise<TrainingEstimate>;
  learnChoices: LearnChoices;
} {
  const loadConductor = async (
    config: Pick<TrainingConfig, 'model'>,
    onPhase: (phase: string) => void,
    signal?: AbortSignal,
  ): Promise<LoadedConductor<EngineTrainingTypes>> => {
    const support = await host.support();
    if (!support.ok)
      throw new BatonError({
        code: 'engine/no-adapter',
        message: `${support.message} Training runs on the GPU through WebGPU, so it cannot run in this tab: the Conductor page's "Your GPU in this browser" says what to do.`,
      });
    const name = describeSource(config.model);
    onPhase(`Loading ${name}`);
    const { model, tokenizer } = await host.ready(modelChoiceOf(config), (p) => onPhase(loadPhase(name, p)), signal);
    onPhase('Preparing the trainer');
    // The model goes back to its own weights: nothing else in this worker samples with the run's adapter.
    return { name, model, tokenizer, close: () => void model.setLora(undefined).catch(() => {}) };
  };
  return {
    async estimate(config) {
      const [conductor, tasks, trainingEngine] = await Promise.all([loadConductor(config, () => {}), trainingTasks(config.tasks, config.seed), engine()]);
      const weights = modelChoiceOf(config).weights;
      return estimateTraining(
        recipeOf(config),
        trainingEngine,
        conductor,
        { tasks, workers: config.pool },
        { weights: weights === 'auto' ? 'f16' : weights, maxBindingBytes: DEFAULT_BINDING_BYTES },
      );
    },
    async learnChoices(model, { signal, onPhase, onStep }) {
      const episodes = await userRewarded();
      const choice = modelChoiceOf({ model });
      const conductor = await loadConductor({ model }, onPhase, signal);
      // Loaded once: the host keeps the model, and its conductor.json, for the session below.
      const format = (await host.ready(choice)).info.format;
      if (!format) {
        conductor.close();
        throw new BatonError({
          code: 'run/config',
          message: `${conductor.name} has no conductor.json saying how it was trained to plan, so its plans cannot be trained on: use the demo Conductor or one trained on this page.`,
        });
      }
      const result = await trainOnChoices(episodes, CHOICE_TRAINING, {
        engine: await engine(),
        loadConductor: async () => conductor,
        choice,
        format,
        signal,
        onPhase,
        onStep,
      });
      return { result, format };
    },
    async prepare(config, keys, onPhase, signal) {
      return openTrainingSession(recipeOf(config), {
        engine: await engine(),
        loadConductor: () => loadConductor(config, onPhase, signal),
        pool: () => poolOf(config.pool, keys, config.seed),
        tasks: () => trainingTasks(config.tasks, config.seed),
      });
    },
  };
}

/**
 * What workers/trainer.worker.ts exposes: the Train page's GRPO run (core/rl's training session over the
 * engine, tab-training.ts) off the page's thread, as a small state machine the page watches:
 *
 *   idle | done | stopped | failed --start--> starting --model loaded--> running --all steps--> done
 *   starting | running --pause--> pausing --> paused --resume--> starting (from the newest checkpoint)
 *   starting | running | paused --stop--> stopped (not resumable; its adapter stays exportable)
 *   any failure --> failed (resumable from the newest checkpoint: nothing stored is lost)
 *
 * The run's settings and state, and a checkpoint after every finished step (and on pause), go to
 * IndexedDB (training-db.ts), so a reload finds the run paused where it was, and what "train on my
 * choices" trained last, with its held-out check, still ready to use. Every rollout is stored in the
 * episode store with its group id and tags. The same class runs in-thread in tests, with its
 * engine part (`prepare`) given. Test: test/unit/services/trainer/trainer-service.test.ts.
 */
import { type Episode, type EpisodeStore, episodeStore } from '../../core/episodes/index.ts';
import { BatonError, toBatonError } from '../../core/errors/index.ts';
import { EXPERTS_POOL } from '../../core/providers/simulated/index.ts';
import type { EngineModelChoice, EngineModelSource } from '../../core/conductor/index.ts';
import { loraState, runTraining, trainedFormatOf, type GrpoCheckpoint, type TrainingSession } from '../../core/rl/index.ts';
import { saveTrainedAdapter, type TrainedAdapter } from '../runtimes/index.ts';
import { RECORDED_PRESETS, type ChoiceTrainingProgress, type LatestGroup, type TrainerStatus, type TrainingConfig, type TrainingProgress } from './api.ts';
import { checkTrainingConfig } from './check-training-config.ts';
import { modelChoiceOf, tabTraining, type LearnChoices, type PrepareTraining, type TrainingEstimate } from './tab-training.ts';
import { recipeOf } from './training-recipe.ts';
import { recordedPoolWorkers } from '../recorded/index.ts';
import { trainBundleZip } from './train-bundle-export.ts';
import { TrainingDb, type StoredRun } from './training-db.ts';

export interface TrainerDeps {
  db: () => Promise<TrainingDb>;
  prepare: PrepareTraining;
  estimate: (config: TrainingConfig) => Promise<TrainingEstimate>;
  episodes: () => Promise<Pick<EpisodeStore, 'putMany'>>;
  saveAdapter: (adapter: TrainedAdapter) => Promise<void>;
  learnChoices: LearnChoices;
}

/** The browser's: Baton's engine in this worker, IndexedDB for the run, its checkpoints, episodes and adapters. */
export function browserTrainerDeps(): TrainerDeps {
  const tab = tabTraining();
  return {
    db: () => TrainingDb.open(),
    prepare: tab.prepare,
    estimate: tab.estimate,
    episodes: episodeStore,
    saveAdapter: (a) => saveTrainedAdapter(a),
    learnChoices: tab.learnChoices,
  };
}

/** The last training group among a step's episodes, for the page. */
function latestGroupOf(episodes: readonly Episode[]): LatestGroup | undefined {
  const train = episodes.filter((e) => e.tags.includes('train'));
  const last = train.at(-1);
  if (!last) return undefined;
  const group = train.filter((e) => e.group === last.group);
  const step = Number(last.tags.find((t) => t.startsWith('step:'))?.slice(5) ?? 0);
  return {
    step,
    question: last.task.question,
    kind: last.task.kind,
    plans: group.map((e) => ({
      steps: (e.workflow?.steps ?? []).map((s) => `${e.pool[s.worker]?.label ?? e.pool[s.worker]?.id ?? `model ${s.worker}`}: ${s.subtask}`),
      ...(e.parseError ? { parseError: e.parseError } : {}),
      reward: e.reward?.value ?? 0,
      correct: e.reward?.correct ?? false,
    })),
  };
}

/** A preset's pool is the service's to fill in: the page need not load the simulated workers, nor a recorded pool's data. */
async function withPool(config: TrainingConfig): Promise<TrainingConfig> {
  if (config.preset === 'experts') return { ...config, pool: [...EXPERTS_POOL] };
  if (config.preset === 'pool') return config;
  const { tasks } = RECORDED_PRESETS[config.preset];
  if (config.tasks !== tasks)
    throw new BatonError({ code: 'run/config', message: `The ${config.preset} pool answers the ${tasks} questions: choose that question set.` });
  return { ...config, pool: await recordedPoolWorkers(config.preset) };
}

const BUSY: readonly TrainerStatus[] = ['starting', 'running', 'pausing', 'stopping'];
const RESUMABLE: readonly TrainerStatus[] = ['paused', 'failed'];

type Listener = (progress: TrainingProgress) => void;

export class TrainerService {
  readonly #deps: TrainerDeps;
  readonly #watchers = new Set<Listener>();
  #progress: TrainingProgress = { status: 'idle', metrics: [], hasAdapter: false };
  #db: Promise<TrainingDb> | undefined;
  readonly #restored: Promise<void>;
  #controller: AbortController | undefined;
  /** Where an aborted run ends: paused (resumable) or stopped. */
  #ending: 'paused' | 'stopped' = 'paused';
  #run: Promise<void> = Promise.resolve();
  /** "Train on my choices" under way: it stops it. */
  #choices: AbortController | undefined;

  constructor(deps: TrainerDeps = browserTrainerDeps()) {
    this.#deps = deps;
    this.#restored = this.#restore();
  }

  /** Calls `listener` with the current progress and then with every change. */
  async watch(listener: Listener): Promise<void> {
    await this.#restored;
    this.#watchers.add(listener);
    listener(this.#progress);
  }

  async progress(): Promise<TrainingProgress> {
    await this.#restored;
    return this.#progress;
  }

  /** A new run (the stored one, if any, is replaced); returns once it is under way. `keys` by slot, for the pool's workers. */
  async start(config: TrainingConfig, keys: Record<string, string> = {}): Promise<void> {
    await this.#restored;
    this.#refuseWhileBusy();
    const run: StoredRun = {
      runId: crypto.randomUUID(),
      config: checkTrainingConfig(await withPool(config)),
      status: 'running',
      startedAt: new Date().toISOString(),
    };
    await (await this.#openDb()).putRun(run);
    this.#replace({ status: 'starting', runId: run.runId, config: run.config, metrics: [], hasAdapter: false });
    this.#launch(run, keys, undefined);
  }

  /** Continues the stored run from its newest checkpoint (from its start when it had none). */
  async resume(keys: Record<string, string> = {}): Promise<void> {
    await this.#restored;
    this.#refuseWhileBusy();
    const db = await this.#openDb();
    const stored = await db.run();
    if (!stored || !RESUMABLE.includes(this.#progress.status)) {
      throw new BatonError({ code: 'run/config', message: 'There is no paused run to resume: start one.' });
    }
    const checkpoint = await db.latestCheckpoint(stored.runId);
    const { error: _, ...run } = { ...stored, status: 'running' as const };
    await db.putRun(run);
    this.#replace({ status: 'starting', runId: run.runId, config: run.config, metrics: checkpoint?.metrics ?? [], hasAdapter: checkpoint !== undefined });
    this.#launch(run, keys, checkpoint);
  }

  /** Stops the run after its current step's update; the last finished step is checkpointed. Resolves once paused. */
  async pause(): Promise<void> {
    await this.#end('paused');
  }

  /** Ends the run for good (a paused one too); its newest checkpoint stays, to export. */
  async stop(): Promise<void> {
    await this.#end('stopped');
  }

  async estimate(config: TrainingConfig): Promise<TrainingEstimate> {
    return this.#deps.estimate(checkTrainingConfig(await withPool(config)));
  }

  /** The run as set, packed for a GPU server (a zip of baton.mjs, its config, tasks, pool and README; train-bundle-export.ts). */
  async exportTrainBundle(config: TrainingConfig): Promise<Uint8Array> {
    return trainBundleZip(checkTrainingConfig(await withPool(config)));
  }

  /** The newest checkpoint's adapter, PEFT files. */
  async exportAdapter(): Promise<{ adapterConfig: string; adapter: Uint8Array; step: number }> {
    const checkpoint = await this.#latest();
    const { adapterConfig, adapter } = loraState(checkpoint.state);
    return { adapterConfig, adapter, step: checkpoint.step };
  }

  /**
   * "Train on my choices" on `model` (the demo Conductor, or the form's): offline GRPO on the user's picks
   * and ratings, checked on their latest picks before and after (core/conductor's trainOnChoices).
   * Resolves when it ends; `onProgress` hears every change.
   */
  async trainOnChoices(model: EngineModelSource, onProgress: (p: ChoiceTrainingProgress) => void): Promise<void> {
    await this.#restored;
    this.#refuseWhileBusy();
    const controller = new AbortController();
    this.#choices = controller;
    let progress: ChoiceTrainingProgress = { status: 'running', phase: 'Reading your picks' };
    const set = (patch: Partial<ChoiceTrainingProgress>) => onProgress((progress = { ...progress, ...patch }));
    set({});
    try {
      const learnt = await this.#deps.learnChoices(model, {
        signal: controller.signal,
        onPhase: (phase) => set({ phase }),
        onStep: (m, steps) => set({ step: m.step, steps, phase: `Training: step ${m.step} of ${steps}` }),
      });
      const { picks, ratedPrompts, before, after, state } = learnt.result;
      const summary = { picks, ratedPrompts, before, after };
      const { adapterConfig, adapter } = loraState(state);
      // A new name per training: the Conductor worker reloads an adapter only when the choice names another.
      const name = `choices-${Date.now().toString(36)}`;
      await (await this.#openDb()).putChoices({ adapter: { name, adapterConfig, adapter, format: learnt.format }, model, summary });
      onProgress({ status: 'done', result: summary });
    } catch (e) {
      const err = toBatonError(e, 'engine/gpu');
      onProgress(controller.signal.aborted ? { status: 'stopped' } : { status: 'failed', error: { code: err.code, message: err.message } });
    } finally {
      this.#choices = undefined;
    }
  }

  /** Stops "train on my choices" after its current step; nothing it trained is kept. */
  stopChoices(): void {
    this.#choices?.abort();
  }

  /** What "train on my choices" trained last, as its progress ended (stored: a reload still shows it). */
  async latestChoices(): Promise<ChoiceTrainingProgress | undefined> {
    const stored = await (await this.#openDb()).choices();
    return stored && { status: 'done', result: stored.summary };
  }

  /** Keeps what "train on my choices" trained last for the Ask path, as useAsConductor does a run's adapter. */
  async useChoicesAsConductor(): Promise<EngineModelChoice> {
    const stored = await (await this.#openDb()).choices();
    if (!stored) throw new BatonError({ code: 'data/not-found', message: 'Nothing trained on your choices yet: train first.' });
    await this.#deps.saveAdapter({ ...stored.adapter, savedAt: new Date().toISOString() });
    return { ...modelChoiceOf({ model: stored.model }), adapter: { from: 'trained', name: stored.adapter.name } };
  }

  /** Keeps the newest checkpoint's adapter for the Ask path and returns the engine model choice that loads it. */
  async useAsConductor(): Promise<EngineModelChoice> {
    const checkpoint = await this.#latest();
    const config = this.#progress.config!;
    // A new name per use: the Conductor worker reloads an adapter only when the choice names another.
    const name = `train-${this.#progress.runId!.slice(0, 8)}-step-${checkpoint.step}-${Date.now().toString(36)}`;
    const { adapterConfig, adapter } = loraState(checkpoint.state);
    // Kept with the format it was trained in, which whoever runs it reads as its conductor.json.
    await this.#deps.saveAdapter({ name, adapterConfig, adapter, format: trainedFormatOf(recipeOf(config)), savedAt: new Date().toISOString() });
    return { ...modelChoiceOf(config), adapter: { from: 'trained', name } };
  }

  async #latest(): Promise<GrpoCheckpoint> {
    await this.#restored;
    const runId = this.#progress.runId;
    const checkpoint = runId ? await (await this.#openDb()).latestCheckpoint(runId) : undefined;
    if (!checkpoint) throw new BatonError({ code: 'data/not-found', message: 'No step has finished yet, so there is no adapter: wait for the first step.' });
    return checkpoint;
  }

  #openDb(): Promise<TrainingDb> {
    this.#db ??= this.#deps.db().catch((e: unknown) => {
      this.#db = undefined;
      throw e;
    });
    return this.#db;
  }

  async #restore(): Promise<void> {
    try {
      const db = await this.#openDb();
      const run = await db.run();
      if (!run) return;
      const checkpoint = await db.latestCheckpoint(run.runId);
      // A run stored as running lost its tab mid-step: it resumes from its newest checkpoint like a paused one.
      const status: TrainerStatus = run.status === 'running' ? 'paused' : run.status;
      this.#progress = {
        status,
        runId: run.runId,
        config: run.config,
        metrics: checkpoint?.metrics ?? [],
        hasAdapter: checkpoint !== undefined,
        ...(run.error ? { error: run.error } : {}),
      };
    } catch (e) {
      const err = toBatonError(e, 'store/io');
      this.#progress = { status: 'idle', metrics: [], hasAdapter: false, error: { code: err.code, message: err.message } };
    }
  }

  #refuseWhileBusy(): void {
    if (this.#choices) throw new BatonError({ code: 'run/config', message: 'Training on your choices is under way: wait for it or stop it first.' });
    if (BUSY.includes(this.#progress.status)) throw new BatonError({ code: 'run/config', message: 'A training run is under way: pause or stop it first.' });
  }

  async #end(ending: 'paused' | 'stopped'): Promise<void> {
    await this.#restored;
    const { status } = this.#progress;
    if (status === 'starting' || status === 'running' || (status === 'pausing' && ending === 'stopped')) {
      this.#ending = ending;
      this.#set({ status: ending === 'paused' ? 'pausing' : 'stopping', phase: 'Finishing the current step' });
      this.#controller?.abort();
    } else if (ending === 'stopped' && RESUMABLE.includes(status)) {
      const run = await (await this.#openDb()).run();
      if (run) await (await this.#openDb()).putRun({ ...run, status: 'stopped' });
      this.#set({ status: 'stopped', phase: undefined });
    }
    await this.#run;
  }

  #launch(run: StoredRun, keys: Record<string, string>, resume: GrpoCheckpoint | undefined): void {
    const controller = new AbortController();
    this.#controller = controller;
    this.#ending = 'paused';
    this.#run = this.#execute(run, keys, resume, controller.signal);
  }

  async #execute(run: StoredRun, keys: Record<string, string>, resume: GrpoCheckpoint | undefined, signal: AbortSignal): Promise<void> {
    const db = await this.#openDb();
    const { config } = run;
    let session: TrainingSession | undefined;
    let writes = Promise.resolve();
    try {
      session = await this.#deps.prepare(config, keys, (phase) => this.#set({ phase }), signal);
      signal.throwIfAborted();
      const firstStep = resume?.step ?? 0;
      const started = performance.now();
      const store = this.#deps.episodes();
      const tags = ['train-page', `run:${run.runId.slice(0, 8)}`];
      const checkpoints = db.checkpoints(run.runId);
      this.#set({ status: 'running', phase: `Step ${firstStep + 1}: sampling and scoring workflows` });
      const result = await runTraining(recipeOf(config), session, {
        ...(resume ? { resume } : {}),
        checkpoints: {
          save: async (c) => {
            await checkpoints.save(c);
            this.#set({ hasAdapter: true });
          },
        },
        signal,
        onEpisodes: (episodes) => {
          const latestGroup = latestGroupOf(episodes);
          if (latestGroup) this.#set({ latestGroup });
          const tagged = episodes.map((e) => ({ ...e, tags: [...e.tags, ...tags] }));
          writes = writes
            .then(async () => (await store).putMany(tagged))
            .catch((e: unknown) => this.#set({ warning: `Some episodes of the run could not be stored: ${toBatonError(e, 'store/io').message}` }));
        },
        onStep: (m) => {
          const done = m.step >= config.steps;
          this.#set({
            metrics: [...this.#progress.metrics, m],
            msPerStep: (performance.now() - started) / (m.step - firstStep),
            ...(signal.aborted || done ? {} : { phase: `Step ${m.step + 1}: sampling and scoring workflows` }),
          });
        },
      });
      await writes;
      const status = result.stopped ? this.#ending : 'done';
      await db.putRun({ ...run, status });
      this.#set({ status, phase: undefined, metrics: result.metrics });
    } catch (e) {
      await writes;
      if (signal.aborted) {
        await db.putRun({ ...run, status: this.#ending });
        this.#set({ status: this.#ending, phase: undefined });
      } else {
        const err = toBatonError(e, 'engine/gpu');
        const error = { code: err.code, message: err.message };
        await db.putRun({ ...run, status: 'failed', error }).catch(() => {});
        this.#set({ status: 'failed', phase: undefined, error });
      }
    } finally {
      session?.close();
    }
  }

  #replace(progress: TrainingProgress): void {
    this.#progress = progress;
    for (const listener of this.#watchers) listener(progress);
  }

  #set(patch: Partial<TrainingProgress>): void {
    const next = { ...this.#progress, ...patch };
    for (const key of Object.keys(patch) as (keyof TrainingProgress)[]) if (patch[key] === undefined) delete next[key];
    this.#replace(next);
  }
}

/**
 * The Train page's state: the settings form, the run's progress as the trainer worker reports it, the
 * memory estimate, and the actions (Start, Pause, Resume, Stop, export, Use as Conductor). Progress is
 * replaced whole on every report ($state.raw); the page never waits on the run itself.
 */
import { getContext, setContext } from 'svelte';
import type { WorkerSpec } from '../../core/providers/index.ts';
import {
  DEFAULT_TRAINING,
  hubRepoId,
  slotsNeeded,
  trainerInService,
  trainOnChoices,
  watchTraining,
  type ChoiceTrainingProgress,
  type EngineModelSource,
  type TrainingConfig,
  type TrainingEstimate,
  type TrainingProgress,
} from '../../client/index.ts';
import { BatonError, toBatonError } from '../../core/errors/index.ts';
import { parseProviderConcurrency, providerConcurrencyText } from '../../core/orchestra/index.ts';
import type { KeysState } from './keys.svelte.ts';
import { runAction } from './run-action.ts';
import type { SettingsState } from './settings.svelte.ts';

/** The form's fields: a TrainingConfig without the pool, its optional settings filled in, and the text fields as typed. */
export interface TrainingForm extends Omit<
  TrainingConfig,
  'pool' | 'model' | 'concurrency' | 'recursionDepth' | 'responseCache' | 'fixedSubtasks' | 'everyPlan' | 'costWeight'
> {
  /** lambda of the cost-aware reward; 0: accuracy alone. */
  costWeight: number;
  /** Empty: the demo Conductor; else a Hub repo id or a base URL. */
  model: string;
  /** Calls in flight per provider, as "openai=4,anthropic=2"; empty: the defaults. */
  concurrency: string;
  recursionDepth: number;
  responseCache: boolean;
  fixedSubtasks: boolean;
  everyPlan: boolean;
}

const formOf = (config: Omit<TrainingConfig, 'pool'>): TrainingForm => ({
  ...config,
  model: config.model.from === 'hub' ? config.model.repo : config.model.from === 'url' ? config.model.url : '',
  concurrency: providerConcurrencyText(config.concurrency ?? {}),
  recursionDepth: config.recursionDepth ?? 0,
  costWeight: config.costWeight ?? 0,
  responseCache: config.responseCache !== false,
  fixedSubtasks: config.fixedSubtasks ?? false,
  everyPlan: config.everyPlan ?? false,
});

/** The model a form names; undefined when the text is neither a repo id nor a URL. */
function modelSourceOf(text: string): EngineModelSource | undefined {
  const t = text.trim();
  if (t === '') return { from: 'demo' };
  if (/^https?:\/\//.test(t) && !hubRepoId(t)) return { from: 'url', url: t.endsWith('/') ? t : `${t}/` };
  const repo = hubRepoId(t);
  return repo ? { from: 'hub', repo } : undefined;
}

/** Whole steps left, at the pace of this session's steps. */
export function secondsLeft(progress: Pick<TrainingProgress, 'metrics' | 'msPerStep' | 'config'>): number | undefined {
  const steps = progress.config?.steps;
  const done = progress.metrics.at(-1)?.step ?? 0;
  if (steps === undefined || progress.msPerStep === undefined) return undefined;
  return ((steps - done) * progress.msPerStep) / 1000;
}

export class TrainPageState {
  form = $state<TrainingForm>(formOf(DEFAULT_TRAINING));
  progress = $state.raw<TrainingProgress>({ status: 'idle', metrics: [], hasAdapter: false });
  estimate = $state.raw<TrainingEstimate | undefined>(undefined);
  estimateError = $state<string | undefined>(undefined);
  /** "Train on my choices", as the trainer worker reports it; undefined before the first. */
  choices = $state.raw<ChoiceTrainingProgress | undefined>(undefined);
  /** An action that failed (a refused start, an export with no step yet). */
  actionError = $state<string | undefined>(undefined);
  #connected = false;

  constructor(
    private readonly keys: KeysState,
    private readonly settings: SettingsState,
  ) {}

  /**
   * Follows the worker's progress; the form takes the stored run's settings, so a reload shows what is running,
   * and what was last trained on the user's choices shows again, ready to use.
   */
  connect(): void {
    if (this.#connected) return;
    this.#connected = true;
    let first = true;
    watchTraining((p) => {
      if (first && p.config) this.form = formOf(p.config);
      first = false;
      this.progress = p;
    }).catch((e: unknown) => {
      this.#connected = false;
      this.actionError = toBatonError(e).message;
    });
    trainerInService()
      .latestChoices()
      .then((stored) => (this.choices ??= stored))
      .catch((e: unknown) => (this.actionError = toBatonError(e).message));
  }

  get busy(): boolean {
    return ['starting', 'running', 'pausing', 'stopping'].includes(this.progress.status);
  }

  /** The form as a run's settings; `pool` is the Workers page's, used by the 'pool' preset. A field that cannot be read throws 'run/config'. */
  config(pool: WorkerSpec[]): TrainingConfig {
    const model = modelSourceOf(this.form.model);
    if (!model)
      throw new BatonError({
        code: 'run/config',
        message: 'The model must be empty (the demo Conductor), a Hugging Face repo id (owner/name) or an https:// URL.',
      });
    const { model: _, concurrency, recursionDepth, responseCache, fixedSubtasks, everyPlan, costWeight, ...rest } = $state.snapshot(this.form);
    const limits = parseProviderConcurrency(concurrency);
    return {
      ...rest,
      model,
      pool: this.form.preset === 'pool' ? ($state.snapshot(pool) as WorkerSpec[]) : [],
      ...(Object.keys(limits).length > 0 ? { concurrency: limits } : {}),
      ...(recursionDepth > 0 ? { recursionDepth } : {}),
      ...(costWeight !== 0 ? { costWeight } : {}),
      ...(responseCache ? {} : { responseCache: false }),
      ...(fixedSubtasks ? { fixedSubtasks } : {}),
      ...(everyPlan ? { everyPlan } : {}),
    };
  }

  async refreshEstimate(pool: WorkerSpec[]): Promise<void> {
    try {
      this.estimate = await trainerInService().estimate(this.config(pool));
      this.estimateError = undefined;
    } catch (e) {
      this.estimate = undefined;
      this.estimateError = toBatonError(e).message;
    }
  }

  async start(pool: WorkerSpec[]): Promise<void> {
    await runAction(this, async () => {
      const config = this.config(pool);
      await trainerInService().start(config, await this.#keysFor(config.pool));
    });
  }

  async resume(): Promise<void> {
    await runAction(this, async () => trainerInService().resume(await this.#keysFor(this.progress.config?.pool ?? [])));
  }

  pause(): Promise<void> {
    return runAction(this, () => trainerInService().pause());
  }

  stop(): Promise<void> {
    return runAction(this, () => trainerInService().stop());
  }

  /** The newest checkpoint's adapter, as PEFT's two files. */
  async adapterFiles(): Promise<{ config: Blob; weights: Blob; step: number } | undefined> {
    let files: { config: Blob; weights: Blob; step: number } | undefined;
    await runAction(this, async () => {
      const a = await trainerInService().exportAdapter();
      files = {
        config: new Blob([a.adapterConfig], { type: 'application/json' }),
        weights: new Blob([a.adapter as Uint8Array<ArrayBuffer>], { type: 'application/octet-stream' }),
        step: a.step,
      };
    });
    return files;
  }

  /** The run as set on the form, packed for a GPU server: a zip to download. */
  async trainBundle(pool: WorkerSpec[]): Promise<Blob | undefined> {
    let zip: Blob | undefined;
    await runAction(this, async () => {
      zip = new Blob([(await trainerInService().exportTrainBundle(this.config(pool))) as Uint8Array<ArrayBuffer>], { type: 'application/zip' });
    });
    return zip;
  }

  /** Makes the newest adapter the Ask page's Conductor; says whether it did. */
  async useAsConductor(): Promise<boolean> {
    let done = false;
    await runAction(this, async () => {
      const model = await trainerInService().useAsConductor();
      this.settings.update({ conductor: { kind: 'engine-model', model } });
      done = true;
    });
    return done;
  }

  /** Offline GRPO on the user's picks and ratings, on the form's Conductor (the demo Conductor unless it names another). */
  async trainOnChoices(): Promise<void> {
    await runAction(this, async () => {
      const model = modelSourceOf(this.form.model);
      if (!model)
        throw new BatonError({ code: 'run/config', message: 'The model must be empty (the demo Conductor), a Hugging Face repo id or an https:// URL.' });
      this.choices = { status: 'running', phase: 'Starting' };
      await trainOnChoices(model, (p) => (this.choices = p));
    });
  }

  stopChoices(): Promise<void> {
    return runAction(this, () => trainerInService().stopChoices());
  }

  /** Makes what was trained on the user's choices the Ask page's Conductor; says whether it did. */
  async useChoicesAsConductor(): Promise<boolean> {
    let done = false;
    await runAction(this, async () => {
      const model = await trainerInService().useChoicesAsConductor();
      this.settings.update({ conductor: { kind: 'engine-model', model } });
      done = true;
    });
    return done;
  }

  #keysFor(pool: WorkerSpec[]): Promise<Record<string, string>> {
    return this.keys.unlockedKeys(slotsNeeded({ pool, conductor: { kind: 'random-routing' } }));
  }
}

const KEY = Symbol('train-page');
export const setTrainPage = (t: TrainPageState): TrainPageState => setContext(KEY, t);
export const useTrainPage = (): TrainPageState => getContext<TrainPageState>(KEY);

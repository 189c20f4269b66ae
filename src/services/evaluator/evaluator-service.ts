/**
 * What workers/evaluator.worker.ts exposes: the Evaluate page's evaluations off the page's thread, with
 * core/bench's runner, methods and report (the same as `baton eval`):
 *
 *   idle | stopped | over-budget | done | failed --start/resume--> loading --> running --all runs--> done
 *   running --stop--> stopping --> stopped (resumable: finished runs are stored episodes, calls are logged)
 *   running --budget spent--> over-budget (resumable with a larger budget)
 *
 * One evaluation runs at a time. Each finished run goes to the episode store tagged eval:<id>, each
 * worker call to the evaluation's call log, and the evaluation (settings, status, report) to
 * evaluation-db.ts, so stored evaluations are listed, reopened, compared and resumed after a reload.
 * The same class runs in-thread in tests. Test: test/unit/services/evaluator/evaluator-service.test.ts.
 */
import { mmluSubjects } from '../../core/bench/datasets/index.ts';
import {
  buildMethods,
  fromSingles,
  buildReport,
  isFinished,
  memoryCallLog,
  runEvaluation,
  runKeyOf,
  type BuiltMethods,
  type EvalProgress,
  type EvalReport,
} from '../../core/bench/eval/index.ts';
import type { Episode, EpisodeStore } from '../../core/episodes/index.ts';
import { BatonError, toBatonError } from '../../core/errors/index.ts';
import type { CodeRunner } from '../../core/reward/index.ts';
import type { WorkerModel, WorkerSpec } from '../../core/providers/index.ts';
import type { RecordedPoolName } from '../../core/providers/replay/index.ts';
import type { Task } from '../../core/task.ts';
import { badRowsOnPage, evalDataFiles, loadItems, type LoadOptions } from './eval-data.ts';
import { checkEvalSettings } from './check-eval-settings.ts';
import { dataLabel, type DataPreview, type EvalSettings, type EvaluationProgress } from './api.ts';
import type { EvaluationDb, EvaluationStatus, StoredEvaluation } from './evaluation-db.ts';
import { loadPhase } from './load-phase.ts';
import { recordedPoolWorkers } from '../recorded/index.ts';
import { ModelRuntimes, tabConductorHost } from '../runtimes/index.ts';

export interface EvaluatorDeps {
  db: () => Promise<EvaluationDb>;
  episodes: () => Promise<Pick<EpisodeStore, 'put' | 'list'>>;
  /** A pool worker from its spec with its key (by slot). */
  worker: (spec: WorkerSpec, keys: Record<string, string>) => Promise<WorkerModel>;
  hubBaseUrl?: string;
}

/** Methods as built, and the runtimes their Conductors load their models on, freed when the evaluation ends. */
type Prepared = BuiltMethods & { runtimes: ModelRuntimes[] };

/** Why each method left out could not run here, in one message. */
const leftOutReasons = (leftOut: Map<string, BatonError>) => [...leftOut].map(([method, why]) => `${method} cannot run in this tab: ${why.message}`).join(' ');

/** Simulated workers draw from a seed per repeat (as baton eval's), so repeats differ. */
const seeded = (spec: WorkerSpec, seed: number): WorkerSpec => (spec.simulated ? { ...spec, simulated: { ...spec.simulated, seed } } : spec);

/** Frees a Conductor method's models; its runtimes keep their GPU devices for the next evaluation. */
async function freeModels(runtimes: ModelRuntimes): Promise<void> {
  runtimes.engine.unload();
  await runtimes.webllm.unload();
}

const idle = (): EvaluationProgress => ({ status: 'idle', done: 0, total: 0, graded: 0, correct: 0, costUsd: 0, elapsedMs: 0 });

async function storedEpisodes(store: Pick<EpisodeStore, 'list'>, evalId: string): Promise<Episode[]> {
  const out: Episode[] = [];
  let cursor: string | undefined;
  do {
    const page = await store.list({ filter: { evaluation: evalId }, limit: 500, ...(cursor ? { cursor } : {}) });
    out.push(...page.episodes);
    cursor = page.nextCursor ?? undefined;
  } while (cursor);
  return out;
}

type Listener = (progress: EvaluationProgress) => void;

export class EvaluatorService {
  readonly #deps: EvaluatorDeps;
  readonly #watchers = new Set<Listener>();
  #progress: EvaluationProgress = idle();
  #controller: AbortController | undefined;
  #run: Promise<void> = Promise.resolve();
  readonly #runtimes: ModelRuntimes[] = [];
  readonly #restored: Promise<void>;

  constructor(deps: EvaluatorDeps) {
    this.#deps = deps;
    this.#restored = this.#restore();
  }

  /** Calls `listener` with the current progress and then with every change. */
  async watch(listener: Listener): Promise<void> {
    await this.#restored.catch(() => {});
    this.#watchers.add(listener);
    listener(this.#progress);
  }

  async list(): Promise<StoredEvaluation[]> {
    await this.#restored;
    return (await this.#deps.db()).list();
  }

  async get(id: string): Promise<StoredEvaluation | undefined> {
    await this.#restored;
    return (await this.#deps.db()).get(id);
  }

  subjects(): Promise<string[]> {
    return mmluSubjects(evalDataFiles);
  }

  /** A recorded pool's workers, which the page offers methods over and starts the evaluation with. */
  recordedPool(name: RecordedPoolName): Promise<WorkerSpec[]> {
    return recordedPoolWorkers(name);
  }

  /** Reads the data as a start would, without starting: the page shows the bad rows by line. */
  async preview(settings: Pick<EvalSettings, 'data' | 'offset' | 'limit'>, file?: ArrayBuffer): Promise<DataPreview> {
    const { tasks, bad, unit } = await loadItems(settings, await this.#loadOptions(file));
    return { items: tasks.length, bad, unit, ...(tasks[0] ? { first: tasks[0].question } : {}) };
  }

  /**
   * A new evaluation; returns its id once it is under way. `file` holds the user's data for a file
   * source; `keys` the pool's keys by slot; `codeRunner` grades code items (the page's Python sandbox).
   */
  async start(settings: EvalSettings, file: ArrayBuffer | undefined, keys: Record<string, string> = {}, codeRunner?: CodeRunner): Promise<string> {
    await this.#restored;
    this.#refuseWhileBusy();
    checkEvalSettings(settings);
    this.#replace({ ...idle(), status: 'loading', phase: 'Reading the data' });
    try {
      const loaded = await loadItems(settings, await this.#loadOptions(file));
      if (loaded.bad.length > 0 && (settings.data.from === 'file' || settings.data.from === 'hub') && !settings.data.skipBad)
        throw badRowsOnPage(settings.data.from === 'file' ? settings.data.name : `hf:${settings.data.dataset}`, loaded);
      if (loaded.tasks.length === 0) throw new BatonError({ code: 'data/invalid', message: `${dataLabel(settings)}: no items to evaluate.` });
      const built = await this.#methods(settings, keys);
      const now = new Date().toISOString();
      const evaluation: StoredEvaluation = {
        id: crypto.randomUUID().slice(0, 8),
        settings,
        status: 'running',
        createdAt: now,
        updatedAt: now,
        items: loaded.tasks.length,
        bad: loaded.bad,
        badUnit: loaded.unit,
        total: loaded.tasks.length * built.methods.length * settings.repeats,
        done: 0,
      };
      await (await this.#deps.db()).create(evaluation, loaded.tasks);
      this.#launch(evaluation, loaded.tasks, built, keys, codeRunner);
      return evaluation.id;
    } catch (e) {
      this.#replace({ ...idle(), status: 'failed', error: this.#errorOf(e) });
      throw e;
    }
  }

  /** Continues a stored evaluation that stopped (a Stop, a spent budget, a reload, an error); `budgetUsd` replaces its budget. */
  async resume(id: string, keys: Record<string, string> = {}, codeRunner?: CodeRunner, budgetUsd?: number): Promise<void> {
    await this.#restored;
    this.#refuseWhileBusy();
    const db = await this.#deps.db();
    const stored = await db.get(id);
    if (!stored) throw new BatonError({ code: 'data/not-found', message: `No stored evaluation ${id}.` });
    if (stored.status === 'done') throw new BatonError({ code: 'run/config', message: 'This evaluation is finished: there is nothing to resume.' });
    const settings = budgetUsd === undefined ? stored.settings : { ...stored.settings, budgetUsd };
    const built = await this.#methods(settings, keys);
    const { error: _, ...evaluation } = { ...stored, settings, status: 'running' as const, updatedAt: new Date().toISOString() };
    await db.put(evaluation);
    this.#launch(evaluation, await db.items(id), built, keys, codeRunner);
  }

  /** Stops the evaluation under way; runs in flight are cut (and redone on resume). Resolves once its report is stored. */
  async stop(): Promise<void> {
    if (this.#progress.status === 'running') {
      this.#set({ status: 'stopping', phase: 'Stopping' });
      this.#controller?.abort();
    }
    await this.#run;
  }

  /** Deletes a stored evaluation that is not running; its episodes stay in the episode store. */
  async delete(id: string): Promise<void> {
    await this.#restored;
    if (this.#busy() && this.#progress.evalId === id) throw new BatonError({ code: 'run/config', message: 'This evaluation is running: stop it first.' });
    await (await this.#deps.db()).delete(id);
  }

  /**
   * The model runtimes of the evaluation's `i`-th Conductor method: kept from one evaluation to the next (their
   * GPU devices with them; the models are freed when an evaluation ends), their loads shown as the phase.
   */
  #runtimesAt(i: number): ModelRuntimes {
    if (!this.#runtimes[i]) {
      const runtimes = new ModelRuntimes();
      runtimes.watch((status) => status.state === 'loading' && this.#busy() && this.#set({ phase: loadPhase(status) }));
      this.#runtimes[i] = runtimes;
    }
    return this.#runtimes[i];
  }

  async #loadOptions(file: ArrayBuffer | undefined): Promise<LoadOptions> {
    const db = await this.#deps.db();
    return {
      ...(file ? { file } : {}),
      hub: {
        cache: db.hubPages(),
        ...(this.#deps.hubBaseUrl ? { baseUrl: this.#deps.hubBaseUrl } : {}),
        onProgress: (read, total) => this.#set({ phase: `Reading rows: ${read} of ${total}` }),
      },
    };
  }

  /**
   * core/bench's methods over the settings' pool. Here a plan is a file the user picked (settings.plans), a
   * remote endpoint plays the Conductor with the page's keys, and so do the tab's own models, each on runtimes
   * of its own: two model methods keep both models loaded instead of swapping them run by run, and on each
   * one's GPU queue its Conductor calls take turns while other runs' workers go on (web-llm answers one chat at
   * a time; on the engine two plans would only interleave their passes). An engine model directory is for baton eval.
   */
  async #methods(settings: EvalSettings, keys: Record<string, string>): Promise<Prepared> {
    const runtimes: ModelRuntimes[] = [];
    const remoteWorker = (baseUrl: string, model: string) => this.#deps.worker({ id: 'remote-conductor', provider: 'openai-compatible', model, baseUrl }, keys);
    const conductorHost = () => {
      const own = this.#runtimesAt(runtimes.length);
      runtimes.push(own);
      return tabConductorHost(own, { remoteWorker, browserGpuReason: true, ...(settings.plans ? { plans: settings.plans } : {}) });
    };
    const built = await buildMethods(settings.methods, { workers: settings.pool, maxSteps: settings.maxSteps, naming: 'web', conductorHost });
    return { ...built, runtimes };
  }

  /**
   * Loads the Conductors' models before the first run, so each load shows as it goes; a method whose model
   * cannot run here (no WebGPU, a missing file) is left out with its reason, and the others run.
   */
  async #loadModels(conductors: BuiltMethods['conductors'], signal: AbortSignal): Promise<Map<string, BatonError>> {
    const leftOut = new Map<string, BatonError>();
    for (const [method, maker] of conductors) {
      try {
        await maker.load(signal);
      } catch (e) {
        if (signal.aborted) break;
        leftOut.set(method, toBatonError(e));
      }
    }
    if (leftOut.size > 0) this.#set({ warning: `${leftOutReasons(leftOut)} The other methods run without it.` });
    return leftOut;
  }

  #launch(evaluation: StoredEvaluation, tasks: Task[], built: Prepared, keys: Record<string, string>, codeRunner: CodeRunner | undefined): void {
    const controller = new AbortController();
    this.#controller = controller;
    this.#replace({ ...idle(), status: 'running', evalId: evaluation.id, total: evaluation.total, phase: 'Starting the workers' });
    this.#run = this.#execute(evaluation, tasks, built, keys, codeRunner, controller.signal);
  }

  async #execute(
    evaluation: StoredEvaluation,
    tasks: Task[],
    built: Prepared,
    keys: Record<string, string>,
    codeRunner: CodeRunner | undefined,
    signal: AbortSignal,
  ): Promise<void> {
    const db = await this.#deps.db();
    const { settings } = evaluation;
    const reportOf = (episodes: Episode[]) => this.#report(evaluation, built, episodes, tasks.length);
    let store: Pick<EpisodeStore, 'put' | 'list'> | undefined;
    try {
      store = await this.#deps.episodes();
      const stored = await storedEpisodes(store, evaluation.id);
      const calls = memoryCallLog(await db.calls(evaluation.id), (c) => db.putCall(evaluation.id, c));
      const pools = await Promise.all(
        Array.from({ length: settings.repeats }, (_, r) => Promise.all(settings.pool.map((spec) => this.#deps.worker(seeded(spec, settings.seed + r), keys)))),
      );
      const leftOut = await this.#loadModels(built.conductors, signal);
      // A method left out keeps what an earlier session finished of it, and its runs still count in the total.
      const kept = stored.filter((e) => isFinished(e) && leftOut.has(runKeyOf(e, evaluation.id)?.method ?? ''));
      const episodes = store;
      const result = await runEvaluation({
        id: evaluation.id,
        items: tasks,
        methods: built.methods.filter((m) => !leftOut.has(m.name)),
        repeats: settings.repeats,
        concurrency: settings.concurrency,
        pool: (r) => pools[r],
        seed: settings.seed,
        ...(settings.budgetUsd !== undefined ? { budgetUsd: settings.budgetUsd } : {}),
        runOptions: { maxSteps: settings.maxSteps, retryCutStreams: true, ...(codeRunner && tasks.some((t) => t.kind === 'code') ? { codeRunner } : {}) },
        stored,
        calls,
        signal,
        onEpisode: (e) => episodes.put(e),
        onProgress: (p) => this.#set({ ...this.#progressOf(p), total: evaluation.total, done: p.done + kept.length }),
      });
      const finished = [...result.episodes, ...kept];
      const error =
        leftOut.size > 0
          ? { code: [...leftOut.values()][0].code, message: `${leftOutReasons(leftOut)} The other methods ran; Resume tries again.` }
          : undefined;
      const status: EvaluationStatus = result.stopped ? 'stopped' : result.overBudget ? 'over-budget' : error ? 'failed' : 'done';
      const report = reportOf(finished);
      await db.put({ ...evaluation, status, updatedAt: new Date().toISOString(), done: finished.length, report, ...(status === 'failed' ? { error } : {}) });
      this.#set({ status, phase: undefined, done: finished.length, ...(status === 'failed' ? { error } : {}) });
    } catch (e) {
      const error = this.#errorOf(e);
      // What finished before the error is kept and reported; the evaluation resumes from there.
      const episodes = store ? await storedEpisodes(store, evaluation.id).catch(() => []) : [];
      await db
        .put({ ...evaluation, status: 'failed', updatedAt: new Date().toISOString(), done: episodes.length, report: reportOf(episodes), error })
        .catch(() => {});
      this.#set({ status: 'failed', phase: undefined, error });
    } finally {
      await Promise.all(built.runtimes.map((r) => freeModels(r).catch(() => {})));
    }
  }

  #report(evaluation: StoredEvaluation, built: BuiltMethods, episodes: Episode[], items: number): EvalReport {
    const { settings } = evaluation;
    return buildReport(episodes, {
      evalId: evaluation.id,
      methods: built.methods.map((m) => m.name),
      ...fromSingles(built, settings.pool),
      evaluation: {
        dataset: dataLabel(settings),
        items,
        skippedRows: evaluation.bad.length,
        repeats: settings.repeats,
        pool: settings.pool.map((w) => w.id),
        seed: settings.seed,
        runs: episodes.length,
        remaining: evaluation.total - episodes.length,
        ...(built.added.length ? { addedForOracle: built.added } : {}),
      },
    });
  }

  #progressOf(p: EvalProgress): Partial<EvaluationProgress> {
    const { last: _, etaMs, ...counts } = p;
    return { ...counts, ...(etaMs !== undefined ? { etaMs } : {}), phase: this.#progress.status === 'stopping' ? 'Stopping' : undefined };
  }

  #errorOf(e: unknown): { code: string; message: string } {
    const err = toBatonError(e);
    return { code: err.code, message: err.message };
  }

  async #restore(): Promise<void> {
    const db = await this.#deps.db();
    // An evaluation stored as running lost its tab: it stopped there, and resumes like a stopped one.
    for (const e of await db.list()) if (e.status === 'running') await db.put({ ...e, status: 'stopped' });
  }

  #busy(): boolean {
    return ['loading', 'running', 'stopping'].includes(this.#progress.status);
  }

  #refuseWhileBusy(): void {
    if (this.#busy()) throw new BatonError({ code: 'run/config', message: 'An evaluation is under way: stop it first.' });
  }

  #replace(progress: EvaluationProgress): void {
    this.#progress = progress;
    for (const w of this.#watchers) w(progress);
  }

  #set(patch: Partial<EvaluationProgress>): void {
    const next = { ...this.#progress, ...patch };
    for (const [k, v] of Object.entries(patch)) if (v === undefined) delete next[k as keyof EvaluationProgress];
    this.#replace(next);
  }
}

import { getContext, setContext } from 'svelte';
import { askInService, slotsNeeded, stopAsk, type AskOptions, type AskRequest } from '../../client/index.ts';
import { toBatonError } from '../../core/errors/index.ts';
import type { WorkerSpec } from '../../core/providers/index.ts';
import type { Task } from '../../core/task.ts';
import { blockedAtLoad } from './allowed-at-load.ts';
import type { TurnLink } from './conversations.svelte.ts';
import type { KeysState } from './keys.svelte.ts';
import { applyRunEvent, emptyRunView, runTotals, type RunView } from './run-view.ts';
import type { Settings } from './settings-schema.ts';
import type { SettingsState } from './settings.svelte.ts';

/** What a run takes from the settings (an Ask run, a comparison's). */
export const askOptions = (s: Settings): AskOptions => ({
  maxSteps: s.maxSteps,
  access: s.access,
  recursionDepth: s.recursion,
  budgetUsd: s.maxUsdPerRun,
  stepTimeoutMs: s.stepTimeoutS * 1000,
});

export type RunStatus = 'idle' | 'running' | 'done' | 'stopped' | 'error';

/** sessionStorage key holding the id of the episode a run is writing, removed when the run ends. */
const RUNNING_KEY = 'baton.running';

/** The Ask page's current run: streamed events in, a view of the plan, steps, totals and answer out. */
export class RunState {
  view = $state<RunView>(emptyRunView());
  status = $state<RunStatus>('idle');
  error = $state<{ code: string; message: string } | undefined>(undefined);
  /** Pool as it was when the run started, so labels stay right if the pool is edited meanwhile. */
  pool = $state.raw<WorkerSpec[]>([]);
  /** What was asked, so the Ask form shows this run's question again after a visit to another page. */
  task = $state.raw<Task | undefined>(undefined);
  /** The conversation the run is a turn of: the Ask page shows the run in that conversation only. */
  conversationId = $state<string | undefined>(undefined);
  /** The id the run's episode is stored under, from the start (it is written as the run goes). */
  episodeId = $state<string | undefined>(undefined);
  startedAt = $state(0);
  endedAt = $state(0);
  totals = $derived(runTotals(this.view));
  /**
   * The episode of a run this tab was in the middle of when the page was reloaded: its end never came, so the
   * Ask page says where what it had done was kept (the stored copy reads "interrupted").
   */
  readonly interruptedId: string | undefined;

  constructor(
    private readonly settings: SettingsState,
    private readonly keys: KeysState,
  ) {
    this.interruptedId = sessionStorage.getItem(RUNNING_KEY) ?? undefined;
    sessionStorage.removeItem(RUNNING_KEY);
  }

  get running(): boolean {
    return this.status === 'running';
  }

  /** Whether the run's episode is stored: the run ends once it is, and in an error when storing it failed. */
  get saved(): boolean {
    return !this.running && this.view.episode !== undefined && this.error === undefined;
  }

  /** Whether a stored episode is this run's, still going (its stored copy says "interrupted" until it ends). */
  isRunning(episodeId: string): boolean {
    return this.running && this.episodeId === episodeId;
  }

  /** Runs a question; `link` makes it a turn of a conversation (its earlier turns are sent as the thread). */
  async start(task: Task, pool: WorkerSpec[], link?: TurnLink): Promise<void> {
    if (this.running) return;
    const s = this.settings.value;
    this.view = emptyRunView();
    this.error = undefined;
    this.pool = $state.snapshot(pool) as WorkerSpec[];
    this.task = $state.snapshot(task) as Task;
    this.conversationId = link?.conversation.id;
    const conductor = $state.snapshot(s.conductor);
    this.status = 'running';
    this.episodeId = crypto.randomUUID();
    sessionStorage.setItem(RUNNING_KEY, this.episodeId);
    this.startedAt = performance.now();
    this.endedAt = 0;
    try {
      const request: Omit<AskRequest, 'keys'> = {
        episodeId: this.episodeId,
        task: this.task,
        ...(link ? { thread: $state.snapshot(link.thread), conversation: { ...link.conversation } } : {}),
        pool: this.pool,
        conductor,
        options: askOptions(s),
        blockedOrigins: blockedAtLoad(this.pool, conductor),
      };
      const keys = await this.keys.unlockedKeys(slotsNeeded(request));
      const episode = await askInService({ ...request, keys }, (e) => applyRunEvent(this.view, e));
      this.view.episode = episode;
      this.status = episode.status === 'aborted' ? 'stopped' : 'done';
    } catch (e) {
      const err = toBatonError(e);
      this.error = { code: err.code, message: err.message };
      this.status = err.code === 'run/aborted' ? 'stopped' : 'error';
    } finally {
      sessionStorage.removeItem(RUNNING_KEY);
      this.endedAt = performance.now();
    }
  }

  stop(): void {
    if (this.running) void stopAsk();
  }
}

const KEY = Symbol('run');
export const setRun = (r: RunState): RunState => setContext(KEY, r);
export const useRun = (): RunState => getContext<RunState>(KEY);

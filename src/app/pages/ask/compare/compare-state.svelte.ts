/**
 * The Ask page's comparison: several workflows for one question run side by side (each a column), the user's
 * pick or ranking stored as the group's rewards, a fused answer, plans edited and run again. The runs happen
 * in the Conductor worker (src/client); the picks are written to the episode store here. The last comparison
 * is named in localStorage, so a reload shows it again from its stored episodes.
 */
import {
  compareInService,
  COMPARE_RUNS,
  fuseInService,
  rerunEditedInService,
  slotsNeeded,
  stopAsk,
  type AskRequest,
  type CompareRequest,
  type EditedRunRequest,
  type FuseRequest,
} from '../../../../client/index.ts';
import { episodeStore, FUSE_TAG, EDITED_TAG, choiceOf, isCandidate, rankingRewards, type Episode } from '../../../../core/episodes/index.ts';
import { toBatonError } from '../../../../core/errors/index.ts';
import type { RunEvent } from '../../../../core/orchestra/index.ts';
import type { WorkerSpec } from '../../../../core/providers/index.ts';
import type { Task } from '../../../../core/task.ts';
import type { Workflow } from '../../../../core/workflow/index.ts';
import {
  applyRunEvent,
  askOptions,
  blockedAtLoad,
  emptyRunView,
  loadJson,
  replayViews,
  saveJson,
  type KeysState,
  type RunView,
  type SettingsState,
} from '../../../state/index.ts';

export type ColumnStatus = 'running' | 'done' | 'error';

export interface CompareColumn {
  /** The run's episode id. */
  id: string;
  /** Its name's number, in the order the runs started ("Workflow 3"): it stays when the columns are reordered. */
  number: number;
  view: RunView;
  status: ColumnStatus;
  edited: boolean;
  error?: string;
  startedAt: number;
  endedAt: number;
}

/** What localStorage keeps: the last comparison's group, and the user's choices of count and cost weight. */
const SAVED_KEY = 'baton.compare';

interface Saved {
  group?: string;
  runs: number;
  costWeight: number;
}

function readSaved(): Saved {
  const raw = loadJson(SAVED_KEY) as Partial<Saved> | undefined;
  const runs = Number.isInteger(raw?.runs) && raw!.runs! >= COMPARE_RUNS.min && raw!.runs! <= COMPARE_RUNS.max ? raw!.runs! : COMPARE_RUNS.default;
  const costWeight = typeof raw?.costWeight === 'number' && raw.costWeight >= 0 ? raw.costWeight : 0;
  return { ...(typeof raw?.group === 'string' ? { group: raw.group } : {}), runs, costWeight };
}

/** A stored episode as a finished column shows it. */
export function viewOfEpisode(episode: Episode): RunView {
  return {
    rounds: [episode, ...episode.rounds].map((r) => ({
      conductorText: r.completion.text,
      conductorDone: true,
      workflow: r.workflow,
      parseError: r.parseError,
      steps: replayViews(r.steps, r.steps.length),
    })),
    episode,
  };
}

const columnOf = (episode: Episode, number: number): CompareColumn => ({
  id: episode.id,
  number,
  view: viewOfEpisode(episode),
  status: 'done',
  edited: episode.tags.includes(EDITED_TAG),
  startedAt: 0,
  endedAt: episode.totals.latencyMs,
});

export class CompareState {
  /** How many workflows the next comparison runs. */
  runs = $state<number>(COMPARE_RUNS.default);
  /** Reward taken off per dollar a run cost, when a pick is stored (0: cost does not count). */
  costWeight = $state(0);
  group = $state<string | undefined>(undefined);
  task = $state.raw<Task | undefined>(undefined);
  /** The pool as the comparison ran it: the plans' worker numbers point into it. */
  pool = $state.raw<WorkerSpec[]>([]);
  columns = $state<CompareColumn[]>([]);
  fused = $state<CompareColumn | undefined>(undefined);
  /** The stored ranking, best first (a pick: one id); empty until the user chooses. */
  ranking = $state<string[]>([]);
  actionError = $state<string | undefined>(undefined);
  /** A ranking or pick being written. */
  saving = $state(false);

  constructor(
    private readonly settings: SettingsState,
    private readonly keys: KeysState,
  ) {
    const saved = readSaved();
    this.runs = saved.runs;
    this.costWeight = saved.costWeight;
    if (saved.group) void this.#restore(saved.group);
  }

  get running(): boolean {
    return this.columns.some((c) => c.status === 'running') || this.fused?.status === 'running';
  }

  /** The finished runs' answers, in column order: what a fusion reads. */
  get answers(): string[] {
    return this.columns.flatMap((c) => (c.view.episode && c.view.episode.final.trim() !== '' ? [c.view.episode.final] : []));
  }

  setRuns(runs: number): void {
    this.runs = Math.min(COMPARE_RUNS.max, Math.max(COMPARE_RUNS.min, Math.round(runs)));
    this.#save();
  }

  setCostWeight(weight: number): void {
    this.costWeight = Number.isFinite(weight) && weight >= 0 ? weight : 0;
    this.#save();
  }

  #save(): void {
    saveJson(SAVED_KEY, { ...(this.group ? { group: this.group } : {}), runs: this.runs, costWeight: this.costWeight } satisfies Saved);
  }

  /** The request fields every action shares: the comparison's pool, the settings now, the keys they need. */
  async #request(): Promise<Omit<AskRequest, 'episodeId'>> {
    const s = this.settings.value;
    const base = { task: this.task!, pool: this.pool, conductor: $state.snapshot(s.conductor), options: askOptions(s) };
    return { ...base, keys: await this.keys.unlockedKeys(slotsNeeded(base)), blockedOrigins: blockedAtLoad(base.pool, base.conductor) };
  }

  #column(id: string, number: number, edited = false): CompareColumn {
    return { id, number, view: emptyRunView(), status: 'running', edited, startedAt: performance.now(), endedAt: 0 };
  }

  /** Events of one column, found by id (the array may have grown meanwhile). */
  #onEvent(id: string) {
    return (e: RunEvent) => {
      const column = this.columns.find((c) => c.id === id) ?? (this.fused?.id === id ? this.fused : undefined);
      if (column) applyRunEvent(column.view, e);
    };
  }

  #finish(id: string, episode: Episode | undefined, error?: unknown): void {
    const column = this.columns.find((c) => c.id === id) ?? (this.fused?.id === id ? this.fused : undefined);
    if (!column) return;
    if (episode) column.view.episode = episode;
    column.status = error === undefined ? 'done' : 'error';
    if (error !== undefined) column.error = toBatonError(error).message;
    column.endedAt = performance.now();
  }

  /** Samples `runs` workflows for `task` and runs them side by side, as a new group. */
  async start(task: Task, pool: WorkerSpec[]): Promise<void> {
    if (this.running) return;
    this.actionError = undefined;
    this.task = $state.snapshot(task) as Task;
    this.pool = $state.snapshot(pool) as WorkerSpec[];
    this.group = `compare-${crypto.randomUUID()}`;
    this.ranking = [];
    this.fused = undefined;
    this.#save();
    const ids = Array.from({ length: this.runs }, () => crypto.randomUUID());
    this.columns = ids.map((id, i) => this.#column(id, i + 1));
    try {
      const request: CompareRequest = { ...(await this.#request()), group: this.group, episodeIds: ids };
      const episodes = await compareInService(request, (run, e) => this.#onEvent(ids[run])(e));
      episodes.forEach((episode) => this.#finish(episode.id, episode));
    } catch (e) {
      for (const id of ids) if (this.columns.find((c) => c.id === id)?.status === 'running') this.#finish(id, undefined, e);
    }
  }

  /** Runs `workflow` (a column's plan, edited) as a new column of the group, beside the one it came from. */
  async rerunEdited(fromId: string, workflow: Workflow): Promise<void> {
    const from = this.columns.find((c) => c.id === fromId)?.view.episode;
    if (!from || !this.group) return;
    this.actionError = undefined;
    const id = crypto.randomUUID();
    const at = this.columns.findIndex((c) => c.id === fromId);
    this.columns.splice(at + 1, 0, this.#column(id, this.columns.length + 1, true));
    try {
      const request: EditedRunRequest = { ...(await this.#request()), group: this.group, episodeId: id, workflow, prompt: $state.snapshot(from.prompt) };
      this.#finish(id, await rerunEditedInService(request, this.#onEvent(id)));
    } catch (e) {
      this.#finish(id, undefined, e);
    }
  }

  /** Has pool worker `worker` fuse the finished answers into one, stored in the group. */
  async fuse(worker: number): Promise<void> {
    if (this.running || !this.group) return;
    this.actionError = undefined;
    const id = crypto.randomUUID();
    this.fused = this.#column(id, 0);
    try {
      const request: FuseRequest = { ...(await this.#request()), group: this.group, episodeId: id, worker, answers: this.answers };
      this.#finish(id, await fuseInService(request, this.#onEvent(id)));
    } catch (e) {
      this.#finish(id, undefined, e);
    }
  }

  /** Moves a column one place left (-1) or right (+1): the order is the ranking to be saved. */
  move(id: string, by: -1 | 1): void {
    const from = this.columns.findIndex((c) => c.id === id);
    this.moveTo(id, from + by);
  }

  /** Moves a column to position `to` (a drop). */
  moveTo(id: string, to: number): void {
    const from = this.columns.findIndex((c) => c.id === id);
    if (from === -1 || to < 0 || to >= this.columns.length || to === from) return;
    const [column] = this.columns.splice(from, 1);
    this.columns.splice(to, 0, column);
  }

  /** Stores a pick: this run scores 1, the others 0 (less the cost term). */
  pick(id: string): Promise<void> {
    return this.#storeRanking([id]);
  }

  /** Stores the columns' order, left to right, as the ranking. */
  saveRanking(): Promise<void> {
    return this.#storeRanking(this.columns.map((c) => c.id));
  }

  async #storeRanking(ranking: string[]): Promise<void> {
    if (this.running || !this.group) return;
    this.actionError = undefined;
    this.saving = true;
    try {
      const store = await episodeStore();
      const members = (await store.list({ filter: { group: this.group }, limit: 100 })).episodes;
      const rewards = rankingRewards(members, ranking, this.costWeight);
      const rewarded = members.filter((e) => rewards.has(e.id)).map((e) => ({ ...e, reward: rewards.get(e.id)! }));
      await store.putMany(rewarded);
      for (const episode of rewarded) {
        const column = this.columns.find((c) => c.id === episode.id);
        if (column) column.view.episode = episode;
      }
      this.ranking = ranking;
    } catch (e) {
      this.actionError = toBatonError(e).message;
    } finally {
      this.saving = false;
    }
  }

  /** Stops the runs in progress; each ends as stopped, and is stored so. */
  stop(): void {
    if (this.running) void stopAsk();
  }

  /** Closes the comparison's view; its episodes stay stored. */
  close(): void {
    if (this.running) return;
    this.group = undefined;
    this.columns = [];
    this.fused = undefined;
    this.ranking = [];
    this.#save();
  }

  /** Shows a stored comparison again: its runs (ranked ones in their order), its fused answer. */
  async #restore(group: string): Promise<void> {
    try {
      const members = (await (await episodeStore()).list({ filter: { group }, order: 'oldest', limit: 100 })).episodes;
      const candidates = members.filter(isCandidate);
      if (candidates.length === 0) return;
      const rank = (e: Episode) => {
        const choice = choiceOf(e.reward);
        return choice?.source === 'pick' && choice.rank !== undefined ? choice.rank : Number.MAX_SAFE_INTEGER;
      };
      const ranked = candidates.filter((e) => rank(e) !== Number.MAX_SAFE_INTEGER).sort((a, b) => rank(a) - rank(b));
      this.group = group;
      this.task = candidates[0].task;
      this.pool = candidates[0].pool;
      this.ranking = ranked.map((e) => e.id);
      const number = (e: Episode) => candidates.indexOf(e) + 1;
      this.columns = [...ranked, ...candidates.filter((e) => !ranked.includes(e))].map((e) => columnOf(e, number(e)));
      const fused = members.find((e) => e.tags.includes(FUSE_TAG));
      this.fused = fused && columnOf(fused, 0);
    } catch {
      // A store that cannot be read shows no comparison; the Episodes page says why.
    }
  }
}

let shared: CompareState | undefined;

/** The app's one comparison, made on first use: it lives on while the user visits other pages, as a run does. */
export function compareState(settings: SettingsState, keys: KeysState): CompareState {
  shared ??= new CompareState(settings, keys);
  return shared;
}

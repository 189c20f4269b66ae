import { getContext, setContext } from 'svelte';
import { episodeStore, type Episode, type EpisodeFilter, type EpisodeStats, type ImportReport } from '../../core/episodes/index.ts';
import { toBatonError } from '../../core/errors/index.ts';
import { evaluatorInService, type StoredEvaluation } from '../../client/index.ts';

const PAGE_SIZE = 20;

/** The Episodes page: a filtered, paged list over the IndexedDB store, plus export and import. */
export class EpisodesState {
  filter = $state<EpisodeFilter>({});
  episodes = $state.raw<Episode[]>([]);
  stats = $state.raw<EpisodeStats | undefined>(undefined);
  loading = $state(false);
  error = $state<string | undefined>(undefined);
  /** The episode deleted last, kept in memory until the next delete so that it can be put back. */
  deleted = $state.raw<Episode | undefined>(undefined);
  /** The stored evaluations, to filter by (their runs are episodes tagged with them). */
  evaluations = $state.raw<StoredEvaluation[]>([]);
  /** The last import's report, with the name of the file it read. */
  lastImport = $state.raw<(ImportReport & { file: string }) | undefined>(undefined);
  #nextCursor = $state<string | null>(null);
  /** Counts reloads, so an earlier one that finishes late (filters changed quickly) cannot overwrite a later one. */
  #generation = 0;

  get hasMore(): boolean {
    return this.#nextCursor !== null;
  }

  /** Reloads the first page (after a filter change). */
  async reload(): Promise<void> {
    await this.#attempt(() => this.#refresh());
  }

  async #refresh(): Promise<void> {
    const generation = ++this.#generation;
    const store = await episodeStore();
    const filter = $state.snapshot(this.filter);
    const [page, stats] = await Promise.all([store.list({ filter, limit: PAGE_SIZE }), store.stats(filter)]);
    if (generation !== this.#generation) return;
    this.episodes = page.episodes;
    this.#nextCursor = page.nextCursor;
    this.stats = stats;
  }

  async loadMore(): Promise<void> {
    const cursor = this.#nextCursor;
    if (cursor === null) return;
    const generation = this.#generation;
    await this.#attempt(async () => {
      const page = await (await episodeStore()).list({ filter: $state.snapshot(this.filter), limit: PAGE_SIZE, cursor });
      if (generation !== this.#generation) return;
      this.episodes = [...this.episodes, ...page.episodes];
      this.#nextCursor = page.nextCursor;
    });
  }

  /** Reads the stored evaluations from the evaluator worker (started for this); a failure shows as the page's error. */
  async loadEvaluations(): Promise<void> {
    try {
      this.evaluations = await evaluatorInService().list();
    } catch (e) {
      this.error = toBatonError(e, 'store/io').message;
    }
  }

  async get(id: string): Promise<Episode | undefined> {
    return (await episodeStore()).get(id);
  }

  async remove(id: string): Promise<void> {
    await this.#change(async () => {
      const store = await episodeStore();
      const episode = await store.get(id);
      await store.delete(id);
      this.deleted = episode;
    });
  }

  /** Puts the last deleted episode back, exactly as it was. */
  async undoRemove(): Promise<void> {
    const episode = this.deleted;
    if (!episode) return;
    await this.#change(async () => {
      await (await episodeStore()).put(episode);
      this.deleted = undefined;
    });
  }

  /** Every episode matching the filter as one JSONL file (one JSON object per line). */
  async exportBlob(): Promise<Blob> {
    const lines: string[] = [];
    for await (const line of (await episodeStore()).exportJsonl($state.snapshot(this.filter))) lines.push(line);
    return new Blob(lines.length === 0 ? [] : [lines.join('\n') + '\n'], { type: 'application/x-ndjson' });
  }

  async importText(text: string, file: string): Promise<void> {
    this.lastImport = undefined;
    await this.#change(async () => {
      this.lastImport = { ...(await (await episodeStore()).importJsonl(text)), file };
    });
  }

  /** A change to the store, then the list as it is now; a failed change's message (e.g. storage full) stays on show. */
  async #change(action: () => Promise<void>): Promise<void> {
    await this.#attempt(async () => {
      try {
        await action();
      } finally {
        await this.#refresh();
      }
    });
  }

  async #attempt(action: () => Promise<void>): Promise<void> {
    this.loading = true;
    this.error = undefined;
    try {
      await action();
    } catch (e) {
      this.error = toBatonError(e, 'store/io').message;
    } finally {
      this.loading = false;
    }
  }
}

const KEY = Symbol('episodes');
export const setEpisodes = (e: EpisodesState): EpisodesState => setContext(KEY, e);
export const useEpisodes = (): EpisodesState => getContext<EpisodesState>(KEY);

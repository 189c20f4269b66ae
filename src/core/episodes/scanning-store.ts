import type { EpisodeFilter } from './filter.ts';
import { importEpisodes, type ImportReport } from './import.ts';
import { episodeToLine } from './jsonl.ts';
import { StatsAccumulator, type EpisodeStats } from './stats.ts';
import type { Episode } from './types.ts';

/**
 * What an episode store computes from one pass over its episodes, alike in IndexedDB and in a directory:
 * a filter's stats and JSONL export, and the import. A store gives the pass (scan), the ids it already
 * holds and putMany.
 */
export abstract class ScanningEpisodeStore {
  /** The live episodes that match `filter`, streamed: never the whole store in memory at once. */
  protected abstract scan(filter: EpisodeFilter): AsyncIterable<Episode>;
  /** Which of these ids the store already holds. */
  protected abstract existingIds(ids: string[]): Promise<Set<string>>;
  abstract putMany(eps: Episode[]): Promise<void>;

  async stats(filter: EpisodeFilter = {}): Promise<EpisodeStats> {
    const acc = new StatsAccumulator();
    for await (const ep of this.scan(filter)) acc.add(ep);
    return acc.result();
  }

  async *exportJsonl(filter: EpisodeFilter = {}): AsyncGenerator<string> {
    for await (const ep of this.scan(filter)) yield episodeToLine(ep);
  }

  importJsonl(lines: AsyncIterable<string> | string): Promise<ImportReport> {
    return importEpisodes(lines, { existingIds: (ids) => this.existingIds(ids), putMany: (eps) => this.putMany(eps) });
  }
}

import type { IDBPDatabase } from 'idb';
import { BatonError } from '../errors/index.ts';
import { conversationToLine, type Conversation } from './conversation.ts';
import { decodeCursor, encodeCursor, type Order, type Position } from './cursor.ts';
import { assertEpisode } from './episode-schema.ts';
import { episodeKeys, evaluationTag, matchesFilter, type EpisodeFilter } from './filter.ts';
import { planIndexQuery } from './idb-query.ts';
import { importEpisodes, type ImportReport } from './import.ts';
import { episodeToLine } from './jsonl.ts';
import { CONVERSATION_STORE, EPISODE_STORE, openEpisodeDb, type EpisodeDb, type OpenEpisodeDbOptions } from './idb-schema.ts';
import { ScanningEpisodeStore } from './scanning-store.ts';
import { isQuotaError, storeFullError } from './store-errors.ts';
import { pageSize, type EpisodePage, type EpisodeStore, type ListOptions } from './store.ts';
import type { Episode } from './types.ts';

/** Episodes read per transaction when streaming (export, stats): bounded memory, short transactions. */
const SCAN_BATCH = 200;

interface IdbEpisodeStoreOptions extends OpenEpisodeDbOptions {
  /** The IDBKeyRange of the same IndexedDB implementation as `indexedDB`. */
  IDBKeyRange: typeof IDBKeyRange;
}

/** The browser's episode store, in IndexedDB through `idb`. */
export class IdbEpisodeStore extends ScanningEpisodeStore implements EpisodeStore {
  private constructor(
    private readonly db: IDBPDatabase<EpisodeDb>,
    private readonly keyRange: typeof IDBKeyRange,
    private readonly factory: IDBFactory,
    /** Fixed for the life of a connection: only an upgrade, which needs every connection closed, adds one. */
    private readonly indexes: ReadonlySet<string>,
  ) {
    super();
  }

  static async open(options: IdbEpisodeStoreOptions): Promise<IdbEpisodeStore> {
    const db = await openEpisodeDb(options);
    const indexes = new Set(Array.from(db.transaction(EPISODE_STORE).store.indexNames));
    return new IdbEpisodeStore(db, options.IDBKeyRange, options.indexedDB, indexes);
  }

  async put(ep: Episode): Promise<void> {
    await this.putMany([ep]);
  }

  async putMany(eps: Episode[]): Promise<void> {
    for (const ep of eps) assertEpisode(ep);
    if (eps.length === 0) return;
    const tx = this.db.transaction(EPISODE_STORE, 'readwrite');
    const done = tx.done;
    done.catch(() => {}); // a failure is read from tx.error below
    try {
      // A failed request aborts the transaction, which rolls back the whole batch; tx.error says why.
      await Promise.all([...eps.map((ep) => tx.store.put(ep)), done]);
    } catch (e) {
      abortQuietly(tx);
      const cause = tx.error ?? e;
      if (isQuotaError(cause) || isQuotaError(e))
        throw storeFullError(
          cause,
          "this browser's storage for Baton",
          'Export your episodes (Export on the Episodes page), then delete old ones and try again.',
        );
      throw new BatonError({
        code: 'store/io',
        message: `Saving episodes failed: ${(cause as Error)?.message ?? String(cause)}. Reload the page and try again.`,
        cause,
      });
    }
  }

  async get(id: string): Promise<Episode | undefined> {
    return this.db.get(EPISODE_STORE, id);
  }

  async list(options: ListOptions = {}): Promise<EpisodePage> {
    const filter = options.filter ?? {};
    const order: Order = options.order ?? 'newest';
    const limit = pageSize(options);
    const cursor = options.cursor === undefined ? undefined : decodeCursor(options.cursor);
    const query = this.#plan(filter, order, cursor);
    if (query.empty) return { episodes: [], nextCursor: null };

    const tx = this.db.transaction(EPISODE_STORE);
    let c = await tx.store.index(query.index).openCursor(query.range, query.direction);
    const episodes: Episode[] = [];
    while (c && episodes.length < limit) {
      if (matchesFilter(episodeKeys(c.value), filter)) episodes.push(c.value);
      c = await c.continue();
    }
    const last = episodes.at(-1);
    return { episodes, nextCursor: c && last ? encodeCursor(last) : null };
  }

  async delete(id: string): Promise<boolean> {
    const tx = this.db.transaction(EPISODE_STORE, 'readwrite');
    const existed = (await tx.store.getKey(id)) !== undefined;
    if (existed) await tx.store.delete(id);
    await tx.done;
    return existed;
  }

  async count(filter: EpisodeFilter = {}): Promise<number> {
    const query = this.#plan(filter, 'oldest');
    if (query.empty) return 0;
    const rest = Object.entries(filter).filter(([k, v]) => v !== undefined && k !== query.served && k !== 'from' && k !== 'to');
    if (rest.length === 0) return this.db.countFromIndex(EPISODE_STORE, query.index, query.range);
    // One tag (an evaluation's is one too) is counted on the tag index.
    const tag =
      rest.length === 1 ? (rest[0][0] === 'tag' ? filter.tag : rest[0][0] === 'evaluation' ? evaluationTag(filter.evaluation!) : undefined) : undefined;
    if (tag !== undefined && query.index === 'byTime' && query.range === undefined) return this.db.countFromIndex(EPISODE_STORE, 'byTag', tag);
    let n = 0;
    for await (const _ of this.scan(filter)) n++;
    return n;
  }

  async close(): Promise<void> {
    this.db.close();
  }

  /** The episodes, then a line for each conversation they are turns of, so an import restores both. */
  override async *exportJsonl(filter: EpisodeFilter = {}): AsyncGenerator<string> {
    const conversations = new Set<string>();
    for await (const ep of this.scan(filter)) {
      if (ep.conversation) conversations.add(ep.conversation.id);
      yield episodeToLine(ep);
    }
    if (!this.#hasConversations()) return;
    for (const id of conversations) {
      const c = await this.db.get(CONVERSATION_STORE, id);
      if (c) yield conversationToLine(c);
    }
  }

  override importJsonl(lines: AsyncIterable<string> | string): Promise<ImportReport> {
    return importEpisodes(lines, {
      existingIds: (ids) => this.existingIds(ids),
      putMany: (eps) => this.putMany(eps),
      ...(this.#hasConversations() ? { putConversations: (cs: Conversation[]) => this.#putNewConversations(cs) } : {}),
    });
  }

  /** A database opened at an old version (an upgrade test's) has no conversations. */
  #hasConversations(): boolean {
    return this.db.objectStoreNames.contains(CONVERSATION_STORE);
  }

  async #putNewConversations(conversations: Conversation[]): Promise<number> {
    const tx = this.db.transaction(CONVERSATION_STORE, 'readwrite');
    const known = await Promise.all(conversations.map((c) => tx.store.getKey(c.id)));
    const fresh = conversations.filter((_, i) => known[i] === undefined);
    await Promise.all([...fresh.map((c) => tx.store.put(c)), tx.done]);
    return fresh.length;
  }

  /** Oldest first, one short transaction per batch, so a consumer may take its time between items. */
  protected async *scan(filter: EpisodeFilter): AsyncGenerator<Episode> {
    let cursor: string | undefined;
    do {
      const page = await this.list({ filter, order: 'oldest', limit: SCAN_BATCH, cursor });
      yield* page.episodes;
      cursor = page.nextCursor ?? undefined;
    } while (cursor);
  }

  protected async existingIds(ids: string[]): Promise<Set<string>> {
    const tx = this.db.transaction(EPISODE_STORE);
    const keys = await Promise.all(ids.map((id) => tx.store.getKey(id)));
    return new Set(keys.filter((k): k is string => k !== undefined));
  }

  #plan(filter: EpisodeFilter, order: Order, cursor?: Position) {
    return planIndexQuery(
      filter,
      order,
      cursor,
      (index) => this.indexes.has(index),
      this.keyRange,
      (a, b) => this.factory.cmp(a, b),
    );
  }
}

/** Aborts a transaction a synchronous throw left open; one that already ended refuses, which is fine. */
function abortQuietly(tx: { abort(): void }): void {
  try {
    tx.abort();
  } catch {
    // already aborted or committed
  }
}

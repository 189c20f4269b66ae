/**
 * The Ask page's conversations, in the episode database beside the episodes that are their turns (one
 * database, so deleting a conversation removes its turns in the same transaction). Tested by
 * test/unit/core/episodes/conversation-store.test.ts (fake-indexeddb).
 */
import type { IDBPDatabase } from 'idb';
import { BatonError } from '../errors/index.ts';
import { excerptOf, type Conversation, type FoundConversation } from './conversation.ts';
import { CONVERSATION_STORE, EPISODE_STORE, openEpisodeDb, type EpisodeDb, type OpenEpisodeDbOptions } from './idb-schema.ts';
import { isQuotaError, storeFullError } from './store-errors.ts';
import type { Episode } from './types.ts';

interface ConversationStoreOptions extends OpenEpisodeDbOptions {
  IDBKeyRange: typeof IDBKeyRange;
}

export class IdbConversationStore {
  private constructor(
    private readonly db: IDBPDatabase<EpisodeDb>,
    private readonly keyRange: typeof IDBKeyRange,
  ) {}

  static async open(options: ConversationStoreOptions): Promise<IdbConversationStore> {
    return new IdbConversationStore(await openEpisodeDb(options), options.IDBKeyRange);
  }

  /**
   * Every conversation, the one used last first; given `search`, those with it (any case) in their title or in
   * a turn's question or final answer, each found in a turn with an excerpt of where.
   */
  async list(search = ''): Promise<FoundConversation[]> {
    const words = search.trim().toLowerCase();
    const all = (await this.db.getAll(CONVERSATION_STORE)).sort((a, b) => b.updatedAt.localeCompare(a.updatedAt) || a.id.localeCompare(b.id));
    if (words === '') return all;
    const byTitle = new Set(all.filter((c) => c.title.toLowerCase().includes(words)).map((c) => c.id));
    const inTurns = await this.#searchTurns(words, byTitle);
    return all.flatMap((c) => (byTitle.has(c.id) ? [c] : inTurns.has(c.id) ? [{ ...c, excerpt: inTurns.get(c.id) }] : []));
  }

  /**
   * One walk over the turns of every conversation (the byConversation index holds them in conversation order):
   * a conversation found already, by its title or an earlier turn, has the rest of its turns skipped.
   */
  async #searchTurns(words: string, found: ReadonlySet<string>): Promise<Map<string, string>> {
    const excerpts = new Map<string, string>();
    let cursor = await this.db.transaction(EPISODE_STORE).store.index('byConversation').openCursor();
    while (cursor) {
      const id = cursor.value.conversation!.id;
      const excerpt = found.has(id) ? undefined : excerptOf([cursor.value.task.question, cursor.value.final], words);
      if (excerpt !== undefined) excerpts.set(id, excerpt);
      // [id, []] sorts after every [id, createdAt, episode id] key: the next conversation's first turn.
      cursor = found.has(id) || excerpt !== undefined ? await cursor.continue([id, []]) : await cursor.continue();
    }
    return excerpts;
  }

  get(id: string): Promise<Conversation | undefined> {
    return this.db.get(CONVERSATION_STORE, id);
  }

  async put(conversation: Conversation): Promise<void> {
    try {
      await this.db.put(CONVERSATION_STORE, conversation);
    } catch (e) {
      if (isQuotaError(e))
        throw storeFullError(e, "this browser's storage for Baton", 'Export your episodes (Export on the Episodes page), then delete old ones and try again.');
      throw new BatonError({ code: 'store/io', message: `Saving the conversation failed: ${(e as Error)?.message ?? String(e)}.`, cause: e });
    }
  }

  /** Its turns, first asked first. */
  async turns(id: string): Promise<Episode[]> {
    return this.db.getAllFromIndex(EPISODE_STORE, 'byConversation', this.#range(id));
  }

  /** Removes the conversation and every episode that is one of its turns, all or nothing; returns how many turns went. */
  async remove(id: string): Promise<number> {
    const tx = this.db.transaction([CONVERSATION_STORE, EPISODE_STORE], 'readwrite');
    const keys = await tx.objectStore(EPISODE_STORE).index('byConversation').getAllKeys(this.#range(id));
    await Promise.all([tx.objectStore(CONVERSATION_STORE).delete(id), ...keys.map((k) => tx.objectStore(EPISODE_STORE).delete(k)), tx.done]);
    return keys.length;
  }

  close(): void {
    this.db.close();
  }

  #range(id: string): IDBKeyRange {
    return this.keyRange.bound([id], [id, []]);
  }
}

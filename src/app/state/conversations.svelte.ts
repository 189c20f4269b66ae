import { getContext, setContext } from 'svelte';
import { conversationStore, titleFrom, type Conversation, type Episode, type FoundConversation } from '../../core/episodes/index.ts';
import { toBatonError } from '../../core/errors/index.ts';
import type { ThreadTurn } from '../../core/workflow/index.ts';

/** What a new turn is sent with: the link its episode keeps and the earlier turns (the run bounds them). */
export interface TurnLink {
  conversation: { id: string; turn: number };
  thread: ThreadTurn[];
}

/** The earlier turns as a follow-up reads them: each question and the final answer it got. */
export function threadOf(turns: readonly Episode[]): ThreadTurn[] {
  return turns.map((t) => ({ question: t.task.question, answer: t.final }));
}

/**
 * The Ask page's conversations (stored in the episode database, core/episodes' IdbConversationStore): the
 * list in the sidebar, the one open and its turns. A new conversation is stored with its first question.
 */
export class ConversationsState {
  /** The stored conversations, or those the search finds (in a title, a question or an answer). */
  list = $state.raw<FoundConversation[]>([]);
  search = $state('');
  /** The open conversation; undefined for a new one, not stored until its first question. */
  current = $state.raw<Conversation | undefined>(undefined);
  /** The open conversation's turns, first asked first. */
  turns = $state.raw<Episode[]>([]);
  /** Why the last change or load failed, in words, until the next one. */
  error = $state<string | undefined>(undefined);
  /** Counts opens, so one that finishes late cannot show another conversation's turns. */
  #opening = 0;
  /** Counts list reads, so a search that finishes late (typing on) cannot replace a later one's list. */
  #listing = 0;

  async refresh(): Promise<void> {
    await this.#attempt(() => this.#relist());
  }

  /** Opens a stored conversation by id, or a new one (no id, or one that is not stored here). */
  async open(id: string | undefined): Promise<void> {
    const opening = ++this.#opening;
    if (id === undefined) {
      this.current = undefined;
      this.turns = [];
      return;
    }
    await this.#attempt(async () => {
      const store = await conversationStore();
      const [conversation, turns] = await Promise.all([store.get(id), store.turns(id)]);
      if (opening !== this.#opening) return;
      this.current = conversation;
      this.turns = conversation ? turns : [];
      if (!conversation) this.error = 'That conversation is not stored in this browser (deleted, or from another browser): this is a new one.';
    });
  }

  /** Before a question is run: its conversation (stored now if new) and what the run is sent with. */
  async beginTurn(question: string): Promise<TurnLink> {
    const now = new Date().toISOString();
    const conversation = this.current ?? { id: crypto.randomUUID(), title: titleFrom(question), createdAt: now, updatedAt: now };
    const updated = { ...conversation, updatedAt: now };
    try {
      await (await conversationStore()).put(updated);
    } catch {
      // Storage refused (full, blocked): the question still runs, and saving its episode says why where the answer shows.
    }
    this.current = updated;
    await this.refresh();
    return { conversation: { id: updated.id, turn: this.turns.length }, thread: threadOf(this.turns) };
  }

  /** A finished run's episode joins its conversation's turns, where that conversation is still the open one. */
  endTurn(episode: Episode): void {
    if (episode.conversation?.id !== this.current?.id || this.turns.some((t) => t.id === episode.id)) return;
    this.turns = [...this.turns, episode];
  }

  async rename(title: string): Promise<void> {
    const current = this.current;
    const clean = title.replace(/\s+/g, ' ').trim();
    if (!current || clean === '' || clean === current.title) return;
    await this.#attempt(async () => {
      const renamed = { ...current, title: clean, updatedAt: new Date().toISOString() };
      await (await conversationStore()).put(renamed);
      this.current = renamed;
      await this.#relist();
    });
  }

  /** Deletes the open conversation and the episodes of its turns; the page then shows a new one. */
  async remove(): Promise<void> {
    const current = this.current;
    if (!current) return;
    await this.#attempt(async () => {
      await (await conversationStore()).remove(current.id);
      this.current = undefined;
      this.turns = [];
      await this.#relist();
    });
  }

  async #relist(): Promise<void> {
    const listing = ++this.#listing;
    const list = await (await conversationStore()).list(this.search);
    if (listing === this.#listing) this.list = list;
  }

  async #attempt(action: () => Promise<void>): Promise<void> {
    this.error = undefined;
    try {
      await action();
    } catch (e) {
      this.error = toBatonError(e, 'store/io').message;
    }
  }
}

const KEY = Symbol('conversations');
export const setConversations = (c: ConversationsState): ConversationsState => setContext(KEY, c);
export const useConversations = (): ConversationsState => getContext<ConversationsState>(KEY);

/** This context's (the page's, or a web worker's) one connection to the episode store (IndexedDB), opened on first use. */
import { IdbConversationStore } from './conversation-store.ts';
import { IdbEpisodeStore } from './idb-store.ts';
import type { EpisodeStore } from './store.ts';

let store: Promise<EpisodeStore> | undefined;

export function episodeStore(): Promise<EpisodeStore> {
  store ??= IdbEpisodeStore.open({ indexedDB, IDBKeyRange }).catch((e: unknown) => {
    store = undefined; // let a later call try again (e.g. after the user frees space)
    throw e;
  });
  return store;
}

let conversations: Promise<IdbConversationStore> | undefined;

/** The page's connection to the Ask page's conversations (in the episode database). */
export function conversationStore(): Promise<IdbConversationStore> {
  conversations ??= IdbConversationStore.open({ indexedDB, IDBKeyRange }).catch((e: unknown) => {
    conversations = undefined;
    throw e;
  });
  return conversations;
}

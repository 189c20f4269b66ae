/** The page's one connection to the episode store (IndexedDB), opened on first use. */
import { IdbEpisodeStore, type EpisodeStore } from '../core/episodes/index.ts';

let store: Promise<EpisodeStore> | undefined;

export function episodeStore(): Promise<EpisodeStore> {
  store ??= IdbEpisodeStore.open({ indexedDB, IDBKeyRange }).catch((e: unknown) => {
    store = undefined; // let a later call try again (e.g. after the user frees space)
    throw e;
  });
  return store;
}

import { getContext, setContext } from 'svelte';

/**
 * Whether the browser keeps this site's data (episodes, keys, downloaded models) when disk space runs low,
 * and how much it holds. Browsers clear "best-effort" storage on their own; `navigator.storage.persist()`
 * asks them not to. The app asks once there is something worth keeping (a saved key, a finished run) and
 * shows the answer, since a refusal means an export is the only safe copy.
 */
export class StorageState {
  /** undefined until read, or where the browser has no Storage API. */
  persisted = $state<boolean | undefined>(undefined);
  /** Whether this tab asked: a refusal reads differently from never having asked. */
  asked = $state(false);
  usage = $state<{ bytes: number; quota: number } | undefined>(undefined);

  async refresh(): Promise<void> {
    const storage = navigator.storage;
    if (!storage) return;
    const [estimate, persisted] = await Promise.all([storage.estimate(), storage.persisted()]);
    this.usage = { bytes: estimate.usage ?? 0, quota: estimate.quota ?? 0 };
    this.persisted = persisted;
  }

  /** Asks the browser to keep this site's data (the Settings page's button); the answer is in `persisted`. */
  async ask(): Promise<void> {
    if (!navigator.storage) return;
    this.asked = true;
    await navigator.storage.persist();
    await this.refresh();
  }

  /** Asks once per tab, when there is first something worth keeping, unless the data is kept already. */
  async askOnce(): Promise<void> {
    if (this.asked) return;
    if (this.persisted === undefined) await this.refresh();
    if (!this.persisted) await this.ask();
  }
}

const KEY = Symbol('storage');
export const setStorage = (s: StorageState): StorageState => setContext(KEY, s);
export const useStorage = (): StorageState => getContext<StorageState>(KEY);

import { getContext, setContext } from 'svelte';
import { KeyStore, SessionKeys, type KeyInfo } from '../../client/keys/index.ts';
import { toBatonError } from '../../core/errors/index.ts';

/**
 * API keys as the UI sees them (masked): those stored in IndexedDB, plain or under a passphrase, and
 * those kept for this tab only; and the passphrase while the tab is unlocked.
 */
export class KeysState {
  keys = $state.raw<KeyInfo[]>([]);
  error = $state<string | undefined>(undefined);
  /** Held in memory only, for this tab's life; never stored. */
  #passphrase: string | undefined;
  unlocked = $state(false);
  #store: Promise<KeyStore> | undefined;
  readonly #tabOnly = new SessionKeys(sessionStorage);

  get locked(): boolean {
    return this.keys.some((k) => k.encrypted) && !this.unlocked;
  }

  /** Whether a run needing these slots would find one locked: stored under the passphrase, with no key of this tab before it. */
  lockedFor(slots: readonly string[]): boolean {
    const tabOnly = new Set(this.keys.filter((k) => k.tabOnly).map((k) => k.slot));
    return !this.unlocked && this.keys.some((k) => k.encrypted && slots.includes(k.slot) && !tabOnly.has(k.slot));
  }

  #open(): Promise<KeyStore> {
    this.#store ??= KeyStore.open(indexedDB);
    return this.#store;
  }

  /** This tab's keys first: a run uses them before a stored key of the same slot. */
  async #list(): Promise<KeyInfo[]> {
    return [...this.#tabOnly.list(), ...(await (await this.#open()).list())];
  }

  async refresh(): Promise<void> {
    try {
      this.keys = await this.#list();
    } catch (e) {
      this.error = toBatonError(e, 'store/io').message; // e.g. storage blocked in a private window
    }
  }

  /** Saves a key for this tab only (no passphrase: it never reaches the key database), or in the database. */
  async save(slot: string, key: string, passphrase: string, tabOnly = false): Promise<boolean> {
    return this.#attempt(async (store) => {
      if (tabOnly) {
        this.#tabOnly.set(slot, key);
        return;
      }
      await store.set(slot, key, passphrase === '' ? undefined : passphrase);
      if (passphrase !== '') this.#unlockWith(passphrase);
    });
  }

  async remove(slot: string): Promise<void> {
    await this.#attempt(async (store) => {
      if (!this.#tabOnly.remove(slot)) await store.remove(slot);
    });
  }

  /** Checks the passphrase against one encrypted key before keeping it. */
  async unlock(passphrase: string): Promise<boolean> {
    const sample = this.keys.find((k) => k.encrypted);
    return this.#attempt(async (store) => {
      if (sample) await store.get(sample.slot, passphrase);
      this.#unlockWith(passphrase);
    });
  }

  lock(): void {
    this.#passphrase = undefined;
    this.unlocked = false;
  }

  async keyFor(slot: string): Promise<string | undefined> {
    return this.#tabOnly.get(slot) ?? (await this.#open()).get(slot, this.#passphrase);
  }

  /** The stored keys of these slots (those with none are left out); throws when a needed key is locked. */
  async unlockedKeys(slots: string[]): Promise<Record<string, string>> {
    const entries = await Promise.all(slots.map(async (slot) => [slot, await this.keyFor(slot)] as const));
    return Object.fromEntries(entries.filter((e): e is readonly [string, string] => e[1] !== undefined));
  }

  #unlockWith(passphrase: string): void {
    this.#passphrase = passphrase;
    this.unlocked = true;
  }

  async #attempt(action: (store: KeyStore) => Promise<void>): Promise<boolean> {
    this.error = undefined;
    try {
      await action(await this.#open());
      this.keys = await this.#list();
      return true;
    } catch (e) {
      // Messages from the store never contain the key itself.
      this.error = toBatonError(e, 'store/io').message;
      return false;
    }
  }
}

const KEY = Symbol('keys');
export const setKeys = (k: KeysState): KeysState => setContext(KEY, k);
export const useKeys = (): KeysState => getContext<KeysState>(KEY);

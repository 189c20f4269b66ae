/**
 * Keys kept for this tab only, in its sessionStorage, never in IndexedDB (key-store.ts). sessionStorage
 * rather than memory: it outlives a reload, which the page itself asks for to allow a new server's origin,
 * yet it belongs to this one tab, is not shared with other tabs, and is dropped when the tab closes.
 * Tested in Chromium by test/e2e/storage-trust.test.ts.
 */
import { pastedKey, type KeyInfo } from './key-store.ts';

const STORAGE_KEY = 'baton.session-keys';

interface SessionKey {
  key: string;
  addedAt: string;
}

export class SessionKeys {
  constructor(private readonly storage: Storage) {}

  #all(): Record<string, SessionKey> {
    try {
      const parsed: unknown = JSON.parse(this.storage.getItem(STORAGE_KEY) ?? '{}');
      return typeof parsed === 'object' && parsed !== null ? (parsed as Record<string, SessionKey>) : {};
    } catch {
      return {};
    }
  }

  #write(all: Record<string, SessionKey>): void {
    this.storage.setItem(STORAGE_KEY, JSON.stringify(all));
  }

  list(): KeyInfo[] {
    return Object.entries(this.#all()).map(([slot, k]) => ({ slot, masked: `••••${k.key.slice(-4)}`, encrypted: false, tabOnly: true, addedAt: k.addedAt }));
  }

  set(slot: string, key: string): void {
    this.#write({ ...this.#all(), [slot]: { key: pastedKey(key), addedAt: new Date().toISOString() } });
  }

  get(slot: string): string | undefined {
    return this.#all()[slot]?.key;
  }

  /** Whether a key of `slot` was here to remove. */
  remove(slot: string): boolean {
    const { [slot]: removed, ...rest } = this.#all();
    this.#write(rest);
    return removed !== undefined;
  }
}

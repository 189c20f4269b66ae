import { getContext, setContext } from 'svelte';
import { loadJson, saveJson } from './local-json.ts';
import { readSettings, type Settings } from './settings-schema.ts';

const STORAGE_KEY = 'baton.settings';

/** The stored settings, checked; also read for the page's connect-src before the app starts (allowed-at-load.ts). */
export const loadSettings = (): Settings => readSettings(loadJson(STORAGE_KEY));

/**
 * Run defaults and the Conductor choice, persisted in localStorage and shared by every tab: an edit is
 * applied to what is stored now (another tab may have changed it since this one read it), and another
 * tab's edit shows here at once (the `storage` event), so neither tab overwrites the other's.
 */
export class SettingsState {
  #value = $state<Settings>(loadSettings());

  constructor(target: Window = window) {
    target.addEventListener('storage', (e) => {
      if (e.key === STORAGE_KEY || e.key === null) this.#value = loadSettings();
    });
  }

  get value(): Settings {
    return this.#value;
  }

  update(patch: Partial<Settings>): void {
    // Nothing stored (or storage refused): this tab's own value is the latest there is.
    const stored = loadJson(STORAGE_KEY);
    this.#value = readSettings({ ...(stored === undefined ? this.#value : readSettings(stored)), ...patch });
    saveJson(STORAGE_KEY, $state.snapshot(this.#value));
  }
}

const KEY = Symbol('settings');
export const setSettings = (s: SettingsState): SettingsState => setContext(KEY, s);
export const useSettings = (): SettingsState => getContext<SettingsState>(KEY);

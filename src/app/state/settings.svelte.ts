import { getContext, setContext } from 'svelte';
import { loadJson, saveJson } from './local-json.ts';
import { readSettings, type Settings } from './settings-schema.ts';

const STORAGE_KEY = 'baton.settings';

/** The stored settings, checked; also read by src/app/csp.ts before the app starts. */
export const loadSettings = (): Settings => readSettings(loadJson(STORAGE_KEY));

/** Run defaults and the Conductor choice, persisted in localStorage. */
export class SettingsState {
  #value = $state<Settings>(loadSettings());

  get value(): Settings {
    return this.#value;
  }

  update(patch: Partial<Settings>): void {
    this.#value = readSettings({ ...this.#value, ...patch });
    saveJson(STORAGE_KEY, $state.snapshot(this.#value));
  }
}

const KEY = Symbol('settings');
export const setSettings = (s: SettingsState): SettingsState => setContext(KEY, s);
export const useSettings = (): SettingsState => getContext<SettingsState>(KEY);

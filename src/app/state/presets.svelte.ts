/**
 * The named presets (pool, Conductor choice, limits), kept in localStorage: saved from what is set now, switched
 * to at once, shared as files with no keys.
 */
import { toBatonError } from '../../core/errors/index.ts';
import { loadJson, saveJson } from './local-json.ts';
import type { PoolState } from './pool.svelte.ts';
import { readPreset, readPresetFile, type Preset } from './preset-schema.ts';
import type { SettingsState } from './settings.svelte.ts';
import type { SpendingState } from './spending.svelte.ts';

const STORAGE_KEY = 'baton.presets';

/** The stored presets, each checked: one that no longer reads is left out. */
function loadPresets(): Preset[] {
  const raw = loadJson(STORAGE_KEY);
  if (!Array.isArray(raw)) return [];
  return raw.flatMap((p) => {
    const read = readPreset(p);
    return read.ok ? [read.preset] : [];
  });
}

export class PresetsState {
  list = $state.raw<Preset[]>(loadPresets());
  /** What the last action did or why it could not, said where the presets are. */
  message = $state<{ ok: boolean; text: string } | undefined>(undefined);

  constructor(
    private readonly pool: PoolState,
    private readonly settings: SettingsState,
    private readonly spending: SpendingState,
  ) {}

  /** The pool, Conductor and limits set now, under `name` (replacing a preset of that name). */
  save(name: string): void {
    const trimmed = name.trim();
    if (trimmed === '') return this.#say(false, 'Give the preset a name first.');
    const preset: Preset = {
      name: trimmed,
      pool: $state.snapshot(this.pool.workers),
      conductor: $state.snapshot(this.settings.value.conductor),
      limits: { runUsd: this.settings.value.maxUsdPerRun, dayUsd: this.spending.limits.dayUsd, monthUsd: this.spending.limits.monthUsd },
    };
    this.#store([...this.list.filter((p) => p.name !== trimmed), preset]);
    this.#say(true, `Saved "${trimmed}".`);
  }

  /** Switches to a preset: its pool, its Conductor and its limits replace the ones set now. */
  async use(preset: Preset): Promise<void> {
    this.pool.replace(preset.pool);
    this.settings.update({ conductor: preset.conductor, maxUsdPerRun: preset.limits.runUsd });
    await this.spending.setLimits({ dayUsd: preset.limits.dayUsd, monthUsd: preset.limits.monthUsd });
    this.#say(true, `Now using "${preset.name}": its ${preset.pool.length} worker${preset.pool.length === 1 ? '' : 's'}, its Conductor and its limits.`);
  }

  remove(name: string): void {
    this.#store(this.list.filter((p) => p.name !== name));
  }

  /** Adds the preset of a picked file; a bad file is refused with what is wrong, and nothing stored changes. */
  async import(file: { name: string; text: string }): Promise<void> {
    try {
      const read = readPresetFile(file.text);
      if (!read.ok) return this.#say(false, `${file.name}: ${read.message}`);
      this.#store([...this.list.filter((p) => p.name !== read.preset.name), read.preset]);
      this.#say(true, `Imported "${read.preset.name}" from ${file.name}. Its workers need their keys in this browser (Workers page).`);
    } catch (e) {
      this.#say(false, `${file.name}: ${toBatonError(e, 'data/invalid').message}`);
    }
  }

  #store(list: Preset[]): void {
    this.list = list;
    saveJson(STORAGE_KEY, list);
  }

  #say(ok: boolean, text: string): void {
    this.message = { ok, text };
  }
}

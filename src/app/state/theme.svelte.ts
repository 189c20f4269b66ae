import { getContext, setContext } from 'svelte';
import { loadJson, saveJson } from './local-json.ts';

/** 'system' follows the operating system's setting; the toggle stores a choice of its own. */
export type Theme = 'system' | 'light' | 'dark';

const STORAGE_KEY = 'baton.theme';

/** The stored theme, anything unreadable being 'system'. */
export function storedTheme(): Theme {
  const value = loadJson(STORAGE_KEY);
  return value === 'light' || value === 'dark' ? value : 'system';
}

/** Puts a theme on the document (tokens.css reads data-theme); main.ts calls it before the first paint, so nothing flashes. */
export function applyTheme(theme: Theme, root: HTMLElement = document.documentElement): void {
  if (theme === 'system') delete root.dataset.theme;
  else root.dataset.theme = theme;
}

/** Light or dark, as chosen or as the system has it; the toggle flips what is shown and keeps the choice. */
export class ThemeState {
  theme = $state<Theme>(storedTheme());
  #systemDark = $state(false);

  constructor(target: Window = window) {
    const query = target.matchMedia('(prefers-color-scheme: dark)');
    this.#systemDark = query.matches;
    query.addEventListener('change', (e) => (this.#systemDark = e.matches));
    target.addEventListener('storage', (e) => {
      if (e.key === STORAGE_KEY || e.key === null) this.#set(storedTheme());
    });
  }

  get dark(): boolean {
    return this.theme === 'dark' || (this.theme === 'system' && this.#systemDark);
  }

  toggle(): void {
    const next: Theme = this.dark ? 'light' : 'dark';
    saveJson(STORAGE_KEY, next);
    this.#set(next);
  }

  /** Follow the system again. */
  followSystem(): void {
    saveJson(STORAGE_KEY, 'system');
    this.#set('system');
  }

  #set(theme: Theme): void {
    this.theme = theme;
    applyTheme(theme);
  }
}

const KEY = Symbol('theme');
export const setTheme = (t: ThemeState): ThemeState => setContext(KEY, t);
export const useTheme = (): ThemeState => getContext<ThemeState>(KEY);

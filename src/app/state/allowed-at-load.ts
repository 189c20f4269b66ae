import { chosenUrls, extraOrigins } from './allowed-origins.ts';
import { loadPool } from './pool.svelte.ts';
import { loadSettings } from './settings.svelte.ts';

let atLoad: readonly string[] | undefined;

/**
 * The origins beyond the fixed hosts that this page load may reach: those of the stored pool and
 * settings, read once, when the app's entry asks before the app starts (src/app/csp.ts applies them). A
 * policy cannot widen later, so an origin added since needs a reload.
 */
export function allowedAtLoad(): readonly string[] {
  atLoad ??= Object.freeze(extraOrigins(chosenUrls(loadPool(), loadSettings().conductor)));
  return atLoad;
}

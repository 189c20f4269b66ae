import type { ConductorChoice } from '../../core/conductor/index.ts';
import type { WorkerSpec } from '../../core/providers/index.ts';
import { chosenUrls, extraOrigins, missingOrigins } from './allowed-origins.ts';
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

/** The origins a run with these choices would reach that this page load's policy blocks: its request names them (services' blockedByPage). */
export function blockedAtLoad(workers: readonly WorkerSpec[], conductor: ConductorChoice): string[] {
  return missingOrigins(chosenUrls(workers, conductor), allowedAtLoad());
}

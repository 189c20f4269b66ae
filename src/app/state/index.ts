/** The app's state: $state classes with their setX/useX context pairs, and the plain schemas they persist. */
export * from './allowed-origins.ts';
export * from './episodes.svelte.ts';
export * from './keys.svelte.ts';
export * from './local-json.ts';
export * from './pool-schema.ts';
export * from './pool.svelte.ts';
export * from './replay.svelte.ts';
export * from './route.ts';
export * from './router.svelte.ts';
export * from './run-announcement.ts';
export * from './run-view.ts';
export * from './run.svelte.ts';
export * from './settings-schema.ts';
export * from './settings.svelte.ts';
export * from './storage.svelte.ts';
export * from './worker-presets.ts';
export * from './training.svelte.ts';

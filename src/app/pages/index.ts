/** One component per page; App.svelte routes between them. */
export { default as AskPage } from './ask/ask-page.svelte';
export { default as ConductorPage } from './conductor/conductor-page.svelte';
export { default as EpisodesPage } from './episodes/episodes-page.svelte';
export { default as SettingsPage } from './settings/settings-page.svelte';
export { default as WorkersPage } from './workers/workers-page.svelte';
/** The Train page loads when first opened: its charts and forms need not weigh on the app's first paint. */
export const loadTrainPage = () => import('./train/train-page.svelte');
/** The Evaluate page too: core/bench's report, table and plot load with it. */
export const loadEvaluatePage = () => import('./evaluate/evaluate-page.svelte');

export { default as ConductorStatus } from './conductor-status.svelte';
export { default as LoadProgressBar } from './load-progress-bar.svelte';

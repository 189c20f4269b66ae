export { default as RunProgress } from './run-progress.svelte';

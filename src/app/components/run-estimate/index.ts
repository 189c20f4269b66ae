export { default as RunEstimate } from './run-estimate.svelte';

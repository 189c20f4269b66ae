export { default as ConductorTrace } from './conductor-trace.svelte';

export { default as AppNav } from './app-nav.svelte';

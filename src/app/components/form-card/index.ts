export { default as FormCard } from './form-card.svelte';

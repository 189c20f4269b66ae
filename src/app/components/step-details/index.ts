export { default as StepDetails } from './step-details.svelte';

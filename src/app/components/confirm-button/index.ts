export { default as ConfirmButton } from './confirm-button.svelte';

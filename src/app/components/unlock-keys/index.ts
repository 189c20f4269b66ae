export { default as UnlockKeys } from './unlock-keys.svelte';

export { default as StorageNote } from './storage-note.svelte';

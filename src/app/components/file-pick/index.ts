export { default as FilePick } from './file-pick.svelte';

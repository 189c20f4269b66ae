export { default as MarkdownView } from './markdown-view.svelte';

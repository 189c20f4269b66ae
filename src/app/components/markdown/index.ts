export { default as MarkdownView } from './markdown-view.svelte';
export { preloadMarkdown } from './load-renderer.ts';

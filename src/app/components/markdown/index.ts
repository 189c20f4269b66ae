export { default as MarkdownView } from './markdown-view.svelte';
export { renderMarkdown } from './render-markdown.ts';

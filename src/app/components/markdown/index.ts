export { default as MarkdownView } from './markdown-view.svelte';
export { MARKDOWN_LIMIT_CHARS, markdownCut, renderMarkdown } from './render-markdown.ts';

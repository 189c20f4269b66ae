/**
 * The Markdown renderer (marked and DOMPurify; KaTeX too when a text has math) is not part of the app's
 * first paint: it loads with the first text shown, or before, once the app has painted (preloadMarkdown).
 */
export const loadRenderer = () => import('./render-markdown.ts');

/** Starts loading the renderer so that the first answer shows at once; if it fails, the first text tries again. */
export function preloadMarkdown(): void {
  loadRenderer().catch(() => undefined);
}

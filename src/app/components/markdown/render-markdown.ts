/**
 * Worker output -> safe HTML. Markdown through marked with raw HTML shown as text, TeX through KaTeX as
 * MathML (no inline styles, so the page's CSP needs no 'unsafe-inline'), then DOMPurify as a second wall.
 * Links open in a new tab without access to this page. Checked in the browser by test/e2e/ask.test.ts.
 */
import DOMPurify from 'dompurify';
import { Marked } from 'marked';
import { labelAnswers } from './answer-tags.ts';
import { hasMath, mathExtensions, type RenderTex } from './math-extension.ts';

const escapeHtml = (s: string) => s.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);

DOMPurify.addHook('afterSanitizeAttributes', (node) => {
  if (node.tagName === 'A' && node.hasAttribute('href')) {
    node.setAttribute('target', '_blank');
    node.setAttribute('rel', 'noopener noreferrer');
  }
});

const PURIFY = {
  USE_PROFILES: { html: true, mathMl: true },
  // KaTeX's MathML keeps the TeX source in <semantics><annotation>: plain text, safe to keep.
  ADD_TAGS: ['semantics', 'annotation'],
  ADD_ATTR: ['target'],
  FORBID_TAGS: ['style', 'form', 'input', 'button', 'textarea', 'select', 'iframe'],
  FORBID_ATTR: ['style'],
};

let katexRender: Promise<RenderTex> | undefined;

function loadKatex(): Promise<RenderTex> {
  katexRender ??= import('katex').then(
    ({ default: katex }) =>
      (tex: string, display: boolean) =>
        katex.renderToString(tex, { displayMode: display, output: 'mathml', throwOnError: false, trust: false }),
  );
  return katexRender;
}

function markedWith(renderTex: RenderTex | undefined): Marked {
  const marked = new Marked({ gfm: true, breaks: false, async: false });
  // Raw HTML in a response is shown as the text it is, never interpreted.
  marked.use({ renderer: { html: ({ text }) => escapeHtml(text) } });
  if (renderTex) marked.use({ extensions: mathExtensions(renderTex) });
  return marked;
}

const plain = markedWith(undefined);
let withMath: Marked | undefined;

export async function renderMarkdown(source: string): Promise<string> {
  const text = labelAnswers(source);
  let marked = plain;
  if (hasMath(text)) {
    withMath ??= markedWith(await loadKatex());
    marked = withMath;
  }
  const html = marked.parse(text, { async: false });
  return DOMPurify.sanitize(html, PURIFY);
}

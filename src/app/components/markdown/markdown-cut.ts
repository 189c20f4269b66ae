/**
 * Past this many characters only the head of a text is rendered as Markdown: parsing, sanitising and
 * laying out a megabyte of HTML stalls the page for seconds. Real answers stay far below it.
 */
const MARKDOWN_LIMIT_CHARS = 50_000;

/** Where to cut a long text for rendering: at its last paragraph break before `limit`, else at `limit`. */
export function markdownCut(text: string, limit = MARKDOWN_LIMIT_CHARS): number {
  if (text.length <= limit) return text.length;
  const paragraph = text.lastIndexOf('\n\n', limit);
  if (paragraph > limit / 2) return paragraph;
  // Never split a surrogate pair (an emoji) in two.
  return /[\uD800-\uDBFF]/.test(text[limit - 1]) ? limit - 1 : limit;
}

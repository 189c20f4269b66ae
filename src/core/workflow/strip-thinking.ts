/**
 * Removes a reasoning model's hidden thinking from a completion, so that lists drafted while thinking
 * are never taken for the answer.
 * - `<think>...</think>` (or `<thinking>`) blocks are dropped;
 * - a closing tag with no opening one (the chat template put `<think>` in the prompt) drops everything
 *   before it;
 * - an opening tag that is never closed (the model ran out of tokens while thinking) drops everything
 *   from it on: such a completion has not answered yet.
 * One pass over the tags, so a long run of tags costs linear time.
 */
export function stripThinking(text: string): string {
  const tags = /<(\/?)think(?:ing)?>/gi;
  let out = '';
  let from = 0; // start of the text not yet copied or dropped
  let inside = false;
  for (let m = tags.exec(text); m; m = tags.exec(text)) {
    const closing = m[1] === '/';
    if (!closing && !inside) {
      out += text.slice(from, m.index);
      inside = true;
    } else if (closing && inside) {
      inside = false;
      from = m.index + m[0].length;
    } else if (closing) {
      out = ''; // an orphan closing tag: all before it was thinking
      from = m.index + m[0].length;
    }
  }
  return inside ? out : out + text.slice(from);
}

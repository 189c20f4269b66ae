/**
 * Workers put their final answer in <answer> tags; rendered Markdown shows it without the tags. Pure, so
 * test/unit/app/components/markdown/answer-tags.test.ts checks the Markdown it makes.
 */

/** Bare TeX in an answer tag (`\frac{3}{4}`, `x^2`) is math even without $ delimiters. */
function asMath(answer: string): string {
  return !/[$<>]/.test(answer) && /\\[a-zA-Z]+|[\^_]/.test(answer) ? `$${answer}$` : answer;
}

/**
 * A tag on a line of its own becomes a labelled "Answer:" paragraph; one inside a sentence ("It is
 * <answer>391</answer>.") keeps its place in it, the answer in bold, so the sentence is not cut in three.
 */
export function labelAnswers(text: string): string {
  return text.replace(/<answer>([\s\S]*?)<\/answer>/g, (tag: string, inner: string, at: number) => {
    const answer = inner.trim();
    const before = text.slice(text.lastIndexOf('\n', at - 1) + 1, at);
    const end = text.indexOf('\n', at + tag.length);
    const after = text.slice(at + tag.length, end === -1 ? undefined : end);
    // An answer of several paragraphs cannot sit inside one.
    const inline = (before.trim() !== '' || after.trim() !== '') && !/\n\s*\n/.test(answer);
    if (!inline) return `\n\n**Answer:** ${asMath(answer)}\n\n`;
    return answer === '' ? '' : `**${asMath(answer)}**`;
  });
}

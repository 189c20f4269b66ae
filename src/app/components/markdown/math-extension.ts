import type { TokenizerAndRendererExtension, Tokens } from 'marked';

/** Renders one TeX formula to markup (KaTeX, loaded only when a text has math). */
export type RenderTex = (tex: string, display: boolean) => string;

interface MathToken extends Tokens.Generic {
  tex: string;
  display: boolean;
}

// Display math: $$...$$ or \[...\]; inline: \(...\) or $...$ whose inside neither starts nor ends with a
// space (so "$5 and $6" stays text).
const BLOCK = /^(?:\$\$([\s\S]+?)\$\$|\\\[([\s\S]+?)\\\])/;
const INLINE = /^(?:\$\$([\s\S]+?)\$\$|\\\[([\s\S]+?)\\\]|\\\(([\s\S]+?)\\\)|\$(?!\s)((?:\\\$|[^$\n])+?)(?<!\s)\$(?!\d))/;

/** A marked extension that turns TeX delimiters into math before markdown can mangle the backslashes. */
export function mathExtensions(renderTex: RenderTex): TokenizerAndRendererExtension[] {
  const render = (token: Tokens.Generic) => renderTex((token as MathToken).tex, (token as MathToken).display);
  return [
    {
      name: 'mathBlock',
      level: 'block',
      start: (src) => src.match(/\$\$|\\\[/)?.index,
      tokenizer(src) {
        const m = BLOCK.exec(src);
        if (!m) return undefined;
        return { type: 'mathBlock', raw: m[0], tex: (m[1] ?? m[2]).trim(), display: true } as MathToken;
      },
      renderer: (token) => `<p>${render(token)}</p>\n`,
    },
    {
      name: 'mathInline',
      level: 'inline',
      start: (src) => src.match(/\$|\\[[(]/)?.index,
      tokenizer(src) {
        const m = INLINE.exec(src);
        if (!m) return undefined;
        const display = m[1] !== undefined || m[2] !== undefined;
        return { type: 'mathInline', raw: m[0], tex: (m[1] ?? m[2] ?? m[3] ?? m[4]).trim(), display } as MathToken;
      },
      renderer: render,
    },
  ];
}

/** Whether a text has anything that looks like TeX math (worth loading KaTeX for). */
export function hasMath(text: string): boolean {
  return /\$[^$\s]|\\\(|\\\[/.test(text);
}

/**
 * Puts a bar over each code block of rendered Markdown: its language, where the block names one, and a Copy
 * button. Added as DOM nodes after rendering, never as HTML, so the sanitiser's rules (no buttons) stay whole.
 */
export function addCodeBars(root: HTMLElement): void {
  for (const pre of root.querySelectorAll('pre')) {
    if (pre.previousElementSibling?.classList.contains('code-bar')) continue;
    const code = pre.querySelector('code');
    const bar = document.createElement('div');
    bar.className = 'code-bar';
    const language = document.createElement('span');
    language.textContent = /language-([\w+#.-]+)/.exec(code?.className ?? '')?.[1] ?? 'code';
    const button = document.createElement('button');
    button.type = 'button';
    button.textContent = 'Copy';
    button.setAttribute('aria-label', `Copy ${language.textContent}`);
    button.addEventListener('click', () => {
      navigator.clipboard.writeText((code ?? pre).textContent ?? '').then(
        () => (button.textContent = 'Copied'),
        () => (button.textContent = 'Copy failed'),
      );
      setTimeout(() => (button.textContent = 'Copy'), 2000);
    });
    bar.append(language, button);
    pre.before(bar);
  }
}

/** The Ask page's keyboard shortcuts, as the help lists them and as the page matches them. */
export const SHORTCUTS = [
  { keys: 'Enter', does: 'run the question' },
  { keys: 'Shift+Enter', does: 'new line in the question' },
  { keys: 'Ctrl+K (⌘K on a Mac)', does: 'new conversation' },
  { keys: '/', does: 'go to the question box' },
  { keys: 'Esc', does: 'stop the run (from the question box)' },
  { keys: '?', does: 'show these shortcuts' },
] as const;

export type ShortcutAction = 'new' | 'focus' | 'help';

/** What a key pressed on the page (outside any field, except Ctrl/Cmd+K) asks for, if anything. */
export function shortcutOf(event: Pick<KeyboardEvent, 'key' | 'ctrlKey' | 'metaKey' | 'altKey'>, inField: boolean): ShortcutAction | undefined {
  if ((event.ctrlKey || event.metaKey) && !event.altKey && event.key.toLowerCase() === 'k') return 'new';
  if (inField || event.ctrlKey || event.metaKey || event.altKey) return undefined;
  if (event.key === '/') return 'focus';
  if (event.key === '?') return 'help';
  return undefined;
}

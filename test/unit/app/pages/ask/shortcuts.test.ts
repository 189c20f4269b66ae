import { expect, test } from 'vitest';
import { shortcutOf } from '../../../../../src/app/pages/ask/shortcuts.ts';

const key = (k: string, mods: Partial<Record<'ctrlKey' | 'metaKey' | 'altKey', boolean>> = {}) => ({
  key: k,
  ctrlKey: false,
  metaKey: false,
  altKey: false,
  ...mods,
});

test('Ctrl+K and Cmd+K start a new conversation, even from the question box', () => {
  expect(shortcutOf(key('k', { ctrlKey: true }), false)).toBe('new');
  expect(shortcutOf(key('K', { metaKey: true }), true)).toBe('new');
  expect(shortcutOf(key('k', { ctrlKey: true, altKey: true }), false)).toBeUndefined();
});

test('"/" and "?" act only outside a field, where they are typed otherwise', () => {
  expect(shortcutOf(key('/'), false)).toBe('focus');
  expect(shortcutOf(key('?'), false)).toBe('help');
  expect(shortcutOf(key('/'), true)).toBeUndefined();
  expect(shortcutOf(key('?'), true)).toBeUndefined();
  expect(shortcutOf(key('k'), false)).toBeUndefined();
});

import { expect, test } from 'vitest';
import { defaultPool, keepFallbacksInPool, newWorkerId, readPool } from '../../../../src/app/state/pool-schema.ts';

test('an unreadable pool is the demo pool; malformed and duplicate entries are dropped', () => {
  expect(readPool(undefined)).toEqual(defaultPool());
  expect(defaultPool().length).toBeGreaterThan(0);
  const ok = { id: 'a', provider: 'openai', model: 'gpt-5' };
  expect(readPool([ok, { id: 'b', provider: 'nope', model: 'x' }, { provider: 'openai', model: 'y' }, { ...ok, model: 'dup' }])).toEqual([ok]);
});

test('new ids are slugs of the model, numbered when taken', () => {
  expect(newWorkerId('Qwen/Qwen2.5-7B', [])).toBe('qwen-qwen2-5-7b');
  expect(newWorkerId('gpt-5', ['gpt-5', 'gpt-5-2'])).toBe('gpt-5-3');
});

test('keeps a fallback only where it names another worker of the pool', () => {
  const a = { id: 'a', provider: 'openai', model: 'gpt-4.1', fallback: 'b' } as const;
  const b = { id: 'b', provider: 'anthropic', model: 'claude-sonnet-4-5', fallback: 'b' } as const;
  const c = { id: 'c', provider: 'google', model: 'gemini-2.5-flash', fallback: 'gone' } as const;
  const { fallback: _b, ...bWithout } = b;
  const { fallback: _c, ...cWithout } = c;
  expect(readPool([a, b, c])).toEqual([a, bWithout, cWithout]);
  expect(keepFallbacksInPool([a])).toEqual([{ id: 'a', provider: 'openai', model: 'gpt-4.1' }]);
});

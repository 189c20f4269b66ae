import { expect, test } from 'vitest';
import { defaultPool, newWorkerId, readPool } from '../../../../src/app/state/pool-schema.ts';

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

import { expect, test } from 'vitest';
import { callsRemoteApi, keyDestination, keySlot } from '../../../../src/core/keys/key-slot.ts';

test('a slot is the provider plus the origin its calls reach', () => {
  expect(keySlot({ provider: 'openai' })).toBe('openai@https://api.openai.com');
  expect(keySlot({ provider: 'google' })).toBe('google@https://generativelanguage.googleapis.com');
  expect(keySlot({ provider: 'openai-compatible', baseUrl: 'https://openrouter.ai/api/v1' })).toBe('openai-compatible@https://openrouter.ai');
});

test('an OpenAI worker pointed at another server does not share the api.openai.com key', () => {
  expect(keySlot({ provider: 'openai', baseUrl: 'https://proxy.example.com/v1' })).toBe('openai@https://proxy.example.com');
});

test('workers that call no remote API have no slot', () => {
  expect(keySlot({ provider: 'simulated' })).toBeUndefined();
  expect(keySlot({ provider: 'replay' })).toBeUndefined();
  expect(keySlot({ provider: 'openai-compatible', baseUrl: 'not a url' })).toBeUndefined();
});

test('the destination names the origin and the header', () => {
  expect(keyDestination('anthropic@https://api.anthropic.com')).toMatch(/^https:\/\/api\.anthropic\.com, in the x-api-key header/);
});

test('a network worker keeps calling a remote API while its base URL is mistyped (so its URL stays editable)', () => {
  expect(keySlot({ provider: 'openai-compatible', baseUrl: 'api.example.com/v1' })).toBeUndefined();
  expect(callsRemoteApi('openai-compatible')).toBe(true);
  expect(callsRemoteApi('anthropic')).toBe(true);
  expect(callsRemoteApi('simulated')).toBe(false);
  expect(callsRemoteApi('replay')).toBe(false);
});

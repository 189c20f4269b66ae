import { expect, test } from 'vitest';
import { DEFAULT_SETTINGS, readSettings } from '../../../../src/app/state/settings-schema.ts';

test('nothing stored reads as the defaults', () => {
  expect(readSettings(undefined)).toEqual(DEFAULT_SETTINGS);
  expect(readSettings('garbage')).toEqual(DEFAULT_SETTINGS);
});

test('valid fields are kept, malformed ones fall back one by one', () => {
  const s = readSettings({
    maxSteps: 3,
    access: 'binary',
    recursion: 9,
    maxUsdPerRun: null,
    stepTimeoutS: 'x',
    conductor: { kind: 'pool-worker', workerId: 'gpt-5' },
  });
  expect(s).toEqual({
    ...DEFAULT_SETTINGS,
    maxSteps: 3,
    access: 'binary',
    recursion: 3,
    maxUsdPerRun: null,
    conductor: { kind: 'pool-worker', workerId: 'gpt-5' },
  });
  expect(readSettings({ maxUsdPerRun: -1, conductor: { kind: 'remote-endpoint' } })).toMatchObject({
    maxUsdPerRun: DEFAULT_SETTINGS.maxUsdPerRun,
    conductor: { kind: 'random-routing' },
  });
  expect(readSettings({ conductor: { kind: 'webllm-model', modelId: 'Qwen2.5-3B-Instruct-q4f32_1-MLC' } }).conductor).toEqual({
    kind: 'webllm-model',
    modelId: 'Qwen2.5-3B-Instruct-q4f32_1-MLC',
  });
  expect(readSettings({ conductor: { kind: 'webllm-model', modelId: '' } }).conductor).toEqual({ kind: 'random-routing' });
});

test('numbers typed out of range are clamped to it, not replaced by the default', () => {
  expect(readSettings({ maxSteps: 0, recursion: -2, stepTimeoutS: 99_999 })).toMatchObject({ maxSteps: 1, recursion: 0, stepTimeoutS: 3600 });
  expect(readSettings({ maxSteps: 2.6, recursion: Number.NaN })).toMatchObject({ maxSteps: 3, recursion: DEFAULT_SETTINGS.recursion });
});

test('a choice stored under the old kind names keeps its meaning', () => {
  const read = (conductor: unknown) => readSettings({ conductor }).conductor;
  expect(read({ kind: 'auto' })).toEqual({ kind: 'demo-auto' });
  expect(read({ kind: 'demo' })).toEqual({ kind: 'random-routing' });
  expect(read({ kind: 'engine', model: { source: { from: 'hub', repo: 'o/m' }, weights: 'int4' } })).toEqual({
    kind: 'engine-model',
    model: { source: { from: 'hub', repo: 'o/m' }, weights: 'int4' },
  });
  expect(read({ kind: 'webllm', modelId: 'Qwen2.5-1.5B-Instruct-q4f32_1-MLC' })).toEqual({
    kind: 'webllm-model',
    modelId: 'Qwen2.5-1.5B-Instruct-q4f32_1-MLC',
  });
  expect(read({ kind: 'worker', workerId: 'gpt' })).toEqual({ kind: 'pool-worker', workerId: 'gpt' });
  expect(read({ kind: 'remote', baseUrl: 'http://localhost:8000/v1', model: 'c' })).toEqual({
    kind: 'remote-endpoint',
    baseUrl: 'http://localhost:8000/v1',
    model: 'c',
  });
});

test('an adapter trained on the Train page is kept with its prompt; a malformed one is dropped', () => {
  const model = { source: { from: 'demo' }, weights: 'f32', adapter: { from: 'trained', name: 'train-1-step-2' }, reasoning: false, prompt: 'compact' };
  expect(readSettings({ conductor: { kind: 'engine-model', model } }).conductor).toEqual({ kind: 'engine-model', model });
  expect(readSettings({ conductor: { kind: 'engine-model', model: { ...model, adapter: { from: 'trained', name: '' }, prompt: 'long' } } }).conductor).toEqual({
    kind: 'engine-model',
    model: { source: { from: 'demo' }, weights: 'f32', reasoning: false },
  });
});

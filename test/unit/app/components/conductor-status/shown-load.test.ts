import { expect, it } from 'vitest';
import type { ConductorLoadStatus } from '../../../../../src/services/runtimes/api.ts';
import { shownLoad } from '../../../../../src/app/components/conductor-status/shown-load.ts';

const webllmLoading: ConductorLoadStatus = { runtime: 'webllm', model: 'Qwen2.5-7B', state: 'loading' };
const engineReady: ConductorLoadStatus = { runtime: 'engine', model: 'demo', state: 'ready' };
const engineLoading: ConductorLoadStatus = { runtime: 'engine', model: 'demo', state: 'loading' };

it('keeps showing a load in progress when the other runtime finishes one', () => {
  expect(shownLoad({ webllm: webllmLoading, engine: engineReady }, engineReady)).toBe(webllmLoading);
});

it('shows the latest report when it is a load, and the latest status when nothing loads', () => {
  expect(shownLoad({ webllm: webllmLoading, engine: engineLoading }, engineLoading)).toBe(engineLoading);
  const webllmReady: ConductorLoadStatus = { ...webllmLoading, state: 'ready' };
  expect(shownLoad({ webllm: webllmReady, engine: engineReady }, webllmReady)).toBe(webllmReady);
  expect(shownLoad({}, undefined)).toBeUndefined();
});

import { expect, test } from 'vitest';
import { announceRun } from '../../../../src/app/state/run-announcement.ts';
import { applyRunEvent, emptyRunView } from '../../../../src/app/state/run-view.ts';
import type { Episode, StepRecord } from '../../../../src/core/episodes/types.ts';

const step = (index: number): StepRecord => ({
  index,
  worker: 0,
  workerId: 'w',
  subtask: 's',
  access: [],
  messages: [],
  output: 'o',
  usage: { input: 1, output: 1 },
  costUsd: 0,
  latencyMs: 1,
  attempts: 1,
});

test('a run is announced by phase and finished steps, never by streamed token', () => {
  const view = emptyRunView();
  expect(announceRun('idle', view)).toBe('');
  expect(announceRun('running', view)).toBe('Waiting for the Conductor.');
  applyRunEvent(view, { type: 'conductor-delta', round: 0, text: 'model_id' });
  expect(announceRun('running', view)).toBe('The Conductor is writing its plan.');
  applyRunEvent(view, { type: 'conductor-delta', round: 0, text: ' = [0, 0]' });
  expect(announceRun('running', view)).toBe('The Conductor is writing its plan.');
  const workflow = {
    steps: [
      { worker: 0, subtask: 'a', access: [] },
      { worker: 0, subtask: 'b', access: 'all' as const },
    ],
  };
  applyRunEvent(view, { type: 'conductor-done', round: 0, completion: 'plan', workflow });
  expect(announceRun('running', view)).toBe('0 of 2 steps done.');
  applyRunEvent(view, { type: 'step-started', round: 0, index: 0, messages: [] });
  applyRunEvent(view, { type: 'step-delta', round: 0, index: 0, text: 'partial' });
  expect(announceRun('running', view)).toBe('0 of 2 steps done.');
  applyRunEvent(view, { type: 'step-done', round: 0, index: 0, step: step(0) });
  expect(announceRun('running', view)).toBe('1 of 2 steps done.');
  applyRunEvent(view, { type: 'conductor-delta', round: 1, text: 'rethinking' });
  expect(announceRun('running', view)).toBe('Round 2: The Conductor is writing its plan.');
});

test('the result: answered and graded, no answer and why, stopped, failed', () => {
  const view = emptyRunView();
  const episode = { final: 'It is 391.', status: 'ok', reward: { value: 1, correct: true, format: true } } as unknown as Episode;
  expect(announceRun('done', { ...view, episode })).toBe('Run finished: answered, graded correct.');
  expect(announceRun('done', { ...view, episode: { ...episode, reward: { ...episode.reward!, correct: false } } })).toBe(
    'Run finished: answered, graded wrong.',
  );
  expect(announceRun('done', { ...view, episode: { ...episode, reward: undefined } })).toBe('Run finished: answered.');
  applyRunEvent(view, { type: 'conductor-failed', round: 0, error: { code: 'provider/network', message: 'down' } });
  expect(announceRun('done', { ...view, episode: { ...episode, final: '', status: 'infra-error' } })).toBe(
    "Run finished with no answer: the Conductor's own call failed, so there was no plan (see above).",
  );
  expect(announceRun('stopped', view)).toBe('Run stopped.');
  expect(announceRun('error', view, { message: 'The worker pool is empty.' })).toBe('Run failed: The worker pool is empty.');
});

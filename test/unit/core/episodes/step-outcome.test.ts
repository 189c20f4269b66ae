import { describe, expect, it } from 'vitest';
import { outcomeText, stepOutcome, type StepRecord } from '../../../../src/core/episodes/index.ts';

const step = (index: number, extra: Partial<StepRecord> = {}): StepRecord => ({
  index,
  worker: 0,
  workerId: 'w',
  subtask: 's',
  access: [],
  messages: [],
  output: 'o',
  usage: { input: 1, output: 1 },
  costUsd: 0.1,
  latencyMs: 5,
  attempts: 1,
  ...extra,
});
const failed = (index: number, message = 'Anthropic rejected the key ANTHROPIC_API_KEY (401).') =>
  step(index, { output: '', costUsd: null, error: { code: 'provider/auth', message } });
/** A step the executor never called because the run was stopping. */
const heldBack = (index: number) =>
  step(index, { output: '', costUsd: 0, attempts: 0, error: { code: 'run/aborted', message: 'Not started: another step failed.' } });
const overBudget = (index: number) =>
  step(index, { output: '', costUsd: 0, attempts: 0, error: { code: 'run/budget', message: 'Not calling "w": it could cost up to $4.' } });
const text = (s: StepRecord, round: StepRecord[], first: 0 | 1 = 0) => outcomeText(stepOutcome(s, round, first));

describe('stepOutcome', () => {
  it('says done, or failed with the error in words, without its code', () => {
    expect(stepOutcome(step(0), [step(0)], 0)).toEqual({ state: 'done', label: 'done' });
    expect(text(failed(0), [failed(0)])).toBe('failed: Anthropic rejected the key ANTHROPIC_API_KEY (401).');
  });

  it('names the failed step that held a step back, counting steps from 0 or from 1 as the surface does', () => {
    const round = [step(0), failed(1), heldBack(2)];
    expect(stepOutcome(round[2], round, 0)).toEqual({ state: 'not-started', label: 'not started', reason: 'step 1 failed' });
    expect(text(round[2], round, 1)).toBe('not started: step 2 failed');
  });

  it('names every step that failed or could pass the budget', () => {
    const round = [failed(0), failed(1), overBudget(2), heldBack(3)];
    expect(text(round[3], round)).toBe('not started: steps 0 and 1 failed; step 2 could pass the budget');
    expect(text(round[2], round)).toBe('not started: Not calling "w": it could cost up to $4.');
  });

  it('says a step held back by a stop, or stopped while it ran, was stopped', () => {
    const stoppedMidCall = step(0, { output: '', costUsd: null, error: { code: 'run/aborted', message: 'Stopped.' } });
    const round = [stoppedMidCall, heldBack(1)];
    expect(stepOutcome(stoppedMidCall, round, 0)).toEqual({ state: 'stopped', label: 'stopped' });
    expect(text(round[1], round)).toBe('not started: the run was stopped');
  });
});

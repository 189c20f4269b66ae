/**
 * How a step ended, in the words every surface shows (the Ask page, an episode's page, `baton run`), so
 * they all say the same. Read from the stored record alone: a step that was never called has no attempts,
 * and one held back by the run stopping carries 'run/aborted'.
 */
import type { StepRecord } from './types.ts';
import { wordList } from './word-list.ts';

export type StepState = 'done' | 'failed' | 'stopped' | 'not-started';

export interface StepOutcome {
  state: StepState;
  /** 'done', 'failed', 'stopped' or 'not started'. */
  label: string;
  /** Why it did not finish, in plain words without error codes. */
  reason?: string;
}

/**
 * @param round the steps of the step's round so far, to name the ones that kept it from starting
 * @param first the number a surface gives the first step: `baton run` counts from 0 as access lists
 *   do, the app from 1
 */
export function stepOutcome(step: StepRecord, round: readonly (StepRecord | undefined)[], first: 0 | 1): StepOutcome {
  const error = step.error;
  if (!error) return { state: 'done', label: 'done' };
  const called = step.attempts > 0;
  if (called) return error.code === 'run/aborted' ? { state: 'stopped', label: 'stopped' } : { state: 'failed', label: 'failed', reason: error.message };
  // Refused by itself (the budget, a model id the pool lacks): its own message says why.
  if (error.code !== 'run/aborted') return { state: 'not-started', label: 'not started', reason: error.message };
  return { state: 'not-started', label: 'not started', reason: heldBackBy(round, first) };
}

/** "failed: <why>", "not started: step 2 failed", "done". */
export function outcomeText(outcome: StepOutcome): string {
  return outcome.reason === undefined ? outcome.label : `${outcome.label}: ${outcome.reason}`;
}

/** What stops a round's remaining steps: its steps that failed or were refused; else the run was stopped. */
function heldBackBy(round: readonly (StepRecord | undefined)[], first: 0 | 1): string {
  const causes = round.filter((s): s is StepRecord => s?.error !== undefined && s.error.code !== 'run/aborted');
  const numbers = (steps: StepRecord[]) => steps.map((s) => s.index + first);
  const failed = numbers(causes.filter((s) => s.attempts > 0));
  const overBudget = numbers(causes.filter((s) => s.attempts === 0 && s.error!.code === 'run/budget'));
  const refused = numbers(causes.filter((s) => s.attempts === 0 && s.error!.code !== 'run/budget'));
  const why = [
    ...(failed.length ? [`${steps(failed)} failed`] : []),
    ...(overBudget.length ? [`${steps(overBudget)} could pass the budget`] : []),
    ...(refused.length ? [`${steps(refused)} could not start`] : []),
  ];
  return why.length ? why.join('; ') : 'the run was stopped';
}

/** "step 2", "steps 1 and 3", "steps 0, 1 and 2". */
function steps(numbers: number[]): string {
  return `${numbers.length === 1 ? 'step' : 'steps'} ${wordList(numbers.map(String))}`;
}

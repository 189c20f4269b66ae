import { expect, test } from 'vitest';
import { applyRunEvent, emptyRunView, noAnswerReason, replayViews, runSpending, runTotals } from '../../../../src/app/state/run-view.ts';
import { unknownCostNote } from '../../../../src/core/episodes/cost-notes.ts';
import type { StepRecord } from '../../../../src/core/episodes/types.ts';

const record = (index: number, cost: number | null, extra: Partial<StepRecord> = {}): StepRecord => ({
  index,
  worker: 1,
  workerId: 'w',
  subtask: 's',
  access: [],
  messages: [{ role: 'user', content: 'm' }],
  output: `out ${index}`,
  usage: { input: 10, output: 5 },
  costUsd: cost,
  latencyMs: 100,
  attempts: 1,
  ...extra,
});

test('events build the plan, the streaming steps and the totals', () => {
  const view = emptyRunView();
  applyRunEvent(view, { type: 'conductor-delta', round: 0, text: 'think ' });
  applyRunEvent(view, { type: 'conductor-delta', round: 0, text: 'more' });
  expect(view.rounds[0].conductorText).toBe('think more');
  const workflow = {
    steps: [
      { worker: 1, subtask: 's', access: [] as number[] },
      { worker: 1, subtask: 's', access: 'all' as const },
    ],
  };
  applyRunEvent(view, { type: 'conductor-done', round: 0, completion: 'full text', workflow });
  applyRunEvent(view, { type: 'step-queued', round: 0, index: 1, worker: 1, workerId: 'w' });
  applyRunEvent(view, { type: 'step-started', round: 0, index: 1, messages: [{ role: 'user', content: 'hi' }] });
  applyRunEvent(view, { type: 'step-delta', round: 0, index: 1, text: 'par' });
  applyRunEvent(view, { type: 'step-delta', round: 0, index: 1, text: 'tial' });
  const r = view.rounds[0];
  expect(r).toMatchObject({ conductorText: 'full text', conductorDone: true, workflow });
  expect(r.steps[1]).toMatchObject({ status: 'running', output: 'partial', messages: [{ content: 'hi' }] });
  expect(runTotals(view)).toEqual({ usage: { input: 0, output: 0 }, costUsd: 0, latencyMs: 0, steps: 0 });
  applyRunEvent(view, { type: 'step-done', round: 0, index: 1, step: record(1, 0.5) });
  applyRunEvent(view, { type: 'step-failed', round: 0, index: 0, step: record(0, 0.25, { error: { code: 'provider/server', message: 'down' } }) });
  expect(r.steps.map((s) => s.status)).toEqual(['failed', 'done']);
  expect(r.steps[1].output).toBe('out 1');
  // Both count in tokens, seconds and dollars; only the one that succeeded is a step done.
  expect(runTotals(view)).toEqual({ usage: { input: 20, output: 10 }, costUsd: 0.75, latencyMs: 200, steps: 1 });
});

test('a step never started is not done, and says in words which step held it back, numbered as the page numbers steps', () => {
  const view = emptyRunView();
  const heldBack = (index: number) =>
    record(index, 0, {
      attempts: 0,
      output: '',
      usage: { input: 0, output: 0 },
      latencyMs: 0,
      error: { code: 'run/aborted', message: 'Not started: another step failed.' },
    });
  applyRunEvent(view, { type: 'step-failed', round: 0, index: 0, step: record(0, null, { error: { code: 'provider/auth', message: 'Key refused.' } }) });
  applyRunEvent(view, { type: 'step-failed', round: 0, index: 2, step: heldBack(2) });
  const steps = view.rounds[0].steps;
  expect(steps[0]).toMatchObject({ status: 'failed', outcome: { label: 'failed', reason: 'Key refused.' } });
  expect(steps[2]).toMatchObject({ status: 'not-started', outcome: { label: 'not started', reason: 'step 1 failed' } });
  // A step running alongside that fails afterwards is named too.
  applyRunEvent(view, { type: 'step-failed', round: 0, index: 1, step: record(1, null, { error: { code: 'provider/server', message: 'Down.' } }) });
  expect(steps[2].outcome?.reason).toBe('steps 1 and 2 failed');
  expect(runTotals(view).steps).toBe(0);
});

test('one unknown price makes the dollar total unknown', () => {
  const view = emptyRunView();
  applyRunEvent(view, { type: 'step-done', round: 0, index: 0, step: record(0, 0.5) });
  applyRunEvent(view, { type: 'step-done', round: 1, index: 0, step: record(0, null) });
  expect(runTotals(view).costUsd).toBeNull();
});

test('the "$?" note blames a missing price, not a failed call, when the calls succeeded', () => {
  const view = emptyRunView();
  const pool = [
    { id: 'w0', provider: 'openai-compatible' as const, model: 'm' },
    { id: 'w', provider: 'openai-compatible' as const, model: 'm', label: 'Laptop' },
  ];
  applyRunEvent(view, { type: 'step-done', round: 0, index: 0, step: record(0, null) });
  expect(runTotals(view).costUsd).toBeNull();
  expect(unknownCostNote(runSpending(view, pool))).toBe('$? means unknown: worker "Laptop" (w) has no price.');
  applyRunEvent(view, { type: 'conductor-done', round: 0, completion: 'plan', usage: { input: 1, output: 1 }, costUsd: null });
  applyRunEvent(view, { type: 'step-failed', round: 0, index: 1, step: record(1, null, { error: { code: 'provider/server', message: 'Down.' } }) });
  expect(unknownCostNote(runSpending(view, pool))).toBe(
    '$? means unknown: worker "Laptop" (w) has no price, the Conductor\'s calls have no price and a call failed before its provider said how many tokens it used.',
  );
});

test("a Conductor's billed call counts in the totals as soon as its plan is done", () => {
  const view = emptyRunView();
  applyRunEvent(view, { type: 'conductor-done', round: 0, completion: 'plan', usage: { input: 300, output: 40 }, costUsd: 0.125 });
  expect(runTotals(view)).toEqual({ usage: { input: 300, output: 40 }, costUsd: 0.125, latencyMs: 0, steps: 0 });
  applyRunEvent(view, { type: 'step-done', round: 0, index: 0, step: record(0, 0.5) });
  expect(runTotals(view)).toEqual({ usage: { input: 310, output: 45 }, costUsd: 0.625, latencyMs: 100, steps: 1 });
  applyRunEvent(view, { type: 'conductor-done', round: 1, completion: 'plan', usage: { input: 1, output: 1 }, costUsd: null });
  expect(runTotals(view).costUsd).toBeNull();
});

test('replay shows the first n stored steps as done and the rest queued', () => {
  const views = replayViews([record(0, 0), record(1, 0, { error: { code: 'x', message: 'y' } }), record(2, 0)], 2);
  expect(views.map((v) => v.status)).toEqual(['done', 'failed', 'queued']);
  expect(views[2].output).toBe('');
  expect(views[0].output).toBe('out 0');
});

test('replay places the steps an interrupted run kept by their index', () => {
  const views = replayViews([record(0, 0), record(2, 0)], 2);
  expect(views[0].output).toBe('out 0');
  expect(views[1]).toBeUndefined();
  expect(views[2]).toMatchObject({ index: 2, status: 'done', output: 'out 2' });
});

test('a failed Conductor call ends its round with the reason, which the missing answer points to', () => {
  const view = emptyRunView();
  expect(noAnswerReason(view, 'infra-error')).toBe('a worker call failed (see the step below).');
  const error = { code: 'provider/cors', message: 'The Conductor failed: blocked.' };
  applyRunEvent(view, { type: 'conductor-failed', round: 0, error });
  expect(view.rounds).toEqual([{ conductorText: '', conductorDone: true, error, steps: [] }]);
  expect(noAnswerReason(view, 'infra-error')).toBe("the Conductor's own call failed, so there was no plan (see above).");
});

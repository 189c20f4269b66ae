import { expect, test } from 'vitest';
import { describeStep } from '../../../../../src/app/components/workflow-graph/describe-step.ts';
import type { StepRecord } from '../../../../../src/core/episodes/types.ts';

const record = {
  index: 2,
  worker: 0,
  workerId: 'w',
  subtask: 's',
  access: [],
  messages: [],
  output: '',
  usage: { input: 0, output: 0 },
  costUsd: 0,
  latencyMs: 1,
  attempts: 1,
} satisfies StepRecord;

test('a step in words: number, worker, subtask, what it sees, how it stands', () => {
  expect(describeStep(0, { worker: 1, subtask: 'Solve it.', access: [] }, 'GPT-5', undefined)).toBe('Step 1, GPT-5: Solve it. Sees only the task. Waiting.');
  expect(
    describeStep(1, { worker: 0, subtask: 'Check.', access: [0] }, 'Claude', { index: 1, worker: 0, status: 'running', messages: [], output: 'par' }),
  ).toBe('Step 2, Claude: Check. Sees step 1. Running.');
  expect(describeStep(3, { worker: 0, subtask: 'Merge.', access: [0, 1, 2] }, 'W', { index: 3, worker: 0, status: 'done', messages: [], output: 'x' })).toBe(
    'Step 4, W: Merge. Sees steps 1, 2 and 3. Done.',
  );
  expect(
    describeStep(2, { worker: 0, subtask: 'Sum up.', access: 'all' }, 'W', {
      index: 2,
      worker: 0,
      status: 'failed',
      messages: [],
      output: '',
      record: { ...record, error: { code: 'provider/server', message: 'The server had an error (500).' } },
    }),
  ).toBe('Step 3, W: Sum up. Sees every earlier step. Failed: The server had an error (500).');
  expect(describeStep(2, { worker: 0, subtask: 'B.', access: [0, 1] }, 'W', undefined)).toBe('Step 3, W: B. Sees steps 1 and 2. Waiting.');
});

test("a step that ended says how, in the run's plain words", () => {
  const view = {
    index: 1,
    worker: 0,
    status: 'not-started' as const,
    messages: [],
    output: '',
    outcome: { state: 'not-started' as const, label: 'not started', reason: 'step 1 failed' },
  };
  expect(describeStep(1, { worker: 0, subtask: 'Check.', access: [0] }, 'W', view)).toBe('Step 2, W: Check. Sees step 1. Not started: step 1 failed.');
});

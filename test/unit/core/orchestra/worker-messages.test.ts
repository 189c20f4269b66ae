import { describe, expect, it } from 'vitest';
import { buildWorkerMessages, WORKER_PREAMBLE, WORKER_PREFILL } from '../../../../src/core/orchestra/worker-messages.ts';

describe('buildWorkerMessages', () => {
  it('sends only the preamble, the task and the subtask to a step that sees nothing', () => {
    const messages = buildWorkerMessages({ question: 'What is 2+3?', subtask: 'Solve it.', visible: [], prefill: false });
    expect(messages).toEqual([
      { role: 'user', content: `${WORKER_PREAMBLE}\n\n<overall_task>\nWhat is 2+3?\n</overall_task>\n\nYour assigned subtask: Solve it.` },
    ]);
  });

  it('names each visible step by its worker model id, in step order, and skips empty responses', () => {
    const [user] = buildWorkerMessages({
      question: 'Q',
      subtask: 'Check.',
      visible: [
        { worker: 3, subtask: 'Solve.', response: 'It is 5.' },
        { worker: 0, subtask: 'Also solve.', response: '   ' },
        { worker: 1, subtask: 'Explain.', response: 'Because.' },
      ],
      prefill: false,
    });
    expect(user.content).toBe(
      `${WORKER_PREAMBLE}\n\n<overall_task>\nQ\n</overall_task>\n\n` +
        '<Subtask assigned to Agent 3>\nSolve.\n</Subtask assigned to Agent 3>\n\n<Agent 3 response>\nIt is 5.\n</Agent 3 response>\n\n' +
        '<Subtask assigned to Agent 1>\nExplain.\n</Subtask assigned to Agent 1>\n\n<Agent 1 response>\nBecause.\n</Agent 1 response>\n\n' +
        'Your assigned subtask: Check.',
    );
    expect(user.content).not.toContain('Agent 0');
  });

  it("puts a previous round in its own block before this round's steps", () => {
    const [user] = buildWorkerMessages({
      question: 'Q',
      subtask: 'Redo.',
      visible: [{ worker: 2, subtask: 'Now.', response: 'new' }],
      previousRound: [{ worker: 1, subtask: 'Before.', response: 'old' }],
      prefill: false,
    });
    const previous = user.content.indexOf('<previous_round>');
    expect(previous).toBeGreaterThan(user.content.indexOf('</overall_task>'));
    expect(user.content.indexOf('<Agent 1 response>\nold')).toBeGreaterThan(previous);
    expect(user.content.indexOf('</previous_round>')).toBeLessThan(user.content.indexOf('<Agent 2 response>\nnew'));
  });

  it('adds the assistant prefill only when asked', () => {
    const withPrefill = buildWorkerMessages({ question: 'Q', subtask: 'S', visible: [], prefill: true });
    expect(withPrefill).toHaveLength(2);
    expect(withPrefill[1]).toEqual({ role: 'assistant', content: WORKER_PREFILL });
  });
});

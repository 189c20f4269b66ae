import { describe, expect, it } from 'vitest';
import { boundThread, buildConductorPrompt, cutMiddle, threadBlock, THREAD_CHARS, THREAD_TURNS } from '../../../../src/core/workflow/index.ts';
import { buildWorkerMessages } from '../../../../src/core/orchestra/index.ts';

const turn = (i: number, answerChars = 10) => ({ question: `Question ${i}?`, answer: `A${i}`.padEnd(answerChars, '.') });

describe('boundThread', () => {
  it('keeps the last THREAD_TURNS turns, oldest first', () => {
    const turns = Array.from({ length: 7 }, (_, i) => turn(i));
    expect(THREAD_TURNS).toBe(4);
    expect(boundThread(turns).map((t) => t.question)).toEqual(['Question 3?', 'Question 4?', 'Question 5?', 'Question 6?']);
  });

  it('cuts a long answer to 2,000 characters keeping its start and end, and a long question to 1,000', () => {
    const answer = `START${'x'.repeat(5000)}END`;
    const [t] = boundThread([{ question: `Q${'y'.repeat(3000)}?`, answer }]);
    expect(t.answer).toHaveLength(2000);
    expect(t.answer.startsWith('START')).toBe(true);
    expect(t.answer.endsWith('END')).toBe(true);
    expect(t.answer).toContain(' […] ');
    expect(t.question).toHaveLength(1000);
    expect(t.question.endsWith('y?')).toBe(true);
  });

  it('drops the oldest turns until the whole fits THREAD_CHARS, always keeping the last one', () => {
    const turns = Array.from({ length: 4 }, (_, i) => turn(i, 1900));
    const kept = boundThread(turns);
    expect(kept.map((t) => t.question)).toEqual(['Question 1?', 'Question 2?', 'Question 3?']);
    expect(kept.reduce((n, t) => n + t.question.length + t.answer.length, 0)).toBeLessThanOrEqual(THREAD_CHARS);
  });

  it('passes over turns with no question, and is empty for no turns', () => {
    expect(boundThread([])).toEqual([]);
    expect(boundThread([{ question: '  ', answer: 'x' }, turn(1)])).toEqual([turn(1)]);
  });

  it('cutMiddle leaves short text alone and is exact at the limit', () => {
    expect(cutMiddle('short', 10)).toBe('short');
    expect(cutMiddle('abcdefghijklmnopqrstuvwxyz', 16)).toBe('abcdef […] vwxyz');
  });
});

describe('the thread in the prompts', () => {
  const thread = [{ question: 'What is 17 × 23?', answer: 'It is <answer>391</answer>.' }];

  it('the Conductor reads it before the question; without one the prompt is unchanged', () => {
    const base = { question: 'And times 2?', workers: 2 };
    const [, user] = buildConductorPrompt({ ...base, thread });
    expect(user.content).toContain(`${threadBlock(thread)}\n\nThe question:\n<question>\nAnd times 2?\n</question>`);
    expect(user.content).toContain('Question: What is 17 × 23?\nAnswer: It is <answer>391</answer>.');
    expect(buildConductorPrompt({ ...base, thread: [] })).toEqual(buildConductorPrompt(base));
  });

  it('every worker reads it, a step that sees no earlier step included', () => {
    const [user] = buildWorkerMessages({ question: 'And times 2?', thread, subtask: 'Solve.', visible: [], prefill: false });
    expect(user.content).toContain(`${threadBlock(thread)}\n\n<overall_task>\nAnd times 2?\n</overall_task>`);
    const [plain] = buildWorkerMessages({ question: 'And times 2?', subtask: 'Solve.', visible: [], prefill: false });
    expect(plain.content).not.toContain('conversation_so_far');
  });
});

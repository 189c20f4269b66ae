import { describe, expect, it } from 'vitest';
import {
  buildConductorPrompt,
  buildRecursionTurn,
  CONDUCTOR_PREFILL,
  EXAMPLES,
  parseWorkflow,
  pickExamples,
  RECURSION_PREFILL,
} from '../../../../src/core/workflow/index.ts';
import { TASK_KINDS, type TaskKind } from '../../../../src/core/task.ts';

const QUESTION = 'What is the sum of the first 100 positive integers?';

/** The worked examples' lists, as the parser reads them from the prompt text. */
function exampleBlocks(user: string): string[] {
  return user
    .split(/\nExample \d+\n/)
    .slice(1)
    .map((b) => b.split('\n\nThe question:')[0]);
}

describe('buildConductorPrompt', () => {
  const messages = buildConductorPrompt({ question: QUESTION, workers: 3, kind: 'math' });
  const user = messages[1].content;

  it('is a system message, a user message and an assistant prefill', () => {
    expect(messages.map((m) => m.role)).toEqual(['system', 'user', 'assistant']);
    expect(messages[2].content).toBe(CONDUCTOR_PREFILL);
  });

  it('states the step limit, the three lists and the binary access format', () => {
    expect(user).toContain('at most 5 steps');
    for (const name of ['model_id', 'subtasks', 'access_list']) expect(user).toContain(name);
    expect(user).toContain('"all" to let it read every earlier step');
    expect(buildConductorPrompt({ question: QUESTION, workers: 3, maxSteps: 3 })[1].content).toContain('at most 3 steps');
  });

  it('ends with the question and the pool as bare model ids, after the examples', () => {
    expect(user.indexOf(`<question>\n${QUESTION}\n</question>`)).toBeGreaterThan(user.indexOf('Example 4'));
    expect(user.endsWith('The models you can use:\nModel id 0\nModel id 1\nModel id 2')).toBe(true);
  });

  it('shows four examples from domains other than the question', () => {
    const domains = pickExamples('math').map((e) => e.domain);
    expect(domains).toHaveLength(4);
    expect(domains).not.toContain('arithmetic');
    expect(domains).not.toContain('physics');
    expect(pickExamples('code').map((e) => e.domain)).toEqual(['arithmetic', 'medical', 'history', 'physics']);
    expect(user).not.toContain(EXAMPLES.find((e) => e.domain === 'arithmetic')!.question);
    expect(exampleBlocks(user)).toHaveLength(4);
  });

  it('writes examples that the parser accepts in binary mode, with ids inside the pool', () => {
    for (const block of exampleBlocks(user)) {
      const r = parseWorkflow(block, { workers: 3, access: 'binary' });
      expect(r.ok, block).toBe(true);
    }
  });

  it('writes positional examples with index lists', () => {
    const positional = buildConductorPrompt({ question: QUESTION, workers: 4, kind: 'code', access: 'positional' })[1].content;
    expect(positional).toContain('access_list = [[], [], [0, 1]]');
    expect(positional).toContain('e.g. [0, 2]');
    for (const block of exampleBlocks(positional)) expect(parseWorkflow(block, { workers: 4, access: 'positional' }).ok).toBe(true);
    const binaryAccess = user.split('\n').filter((l) => l.startsWith('access_list = '));
    expect(binaryAccess.length).toBe(4);
    for (const line of binaryAccess) expect(line).not.toMatch(/\d/);
  });

  it('shows worker descriptions only when asked', () => {
    const pool = [{ description: 'fast, cheap' }, {}, { description: 'careful with code' }];
    const plain = buildConductorPrompt({ question: QUESTION, workers: pool })[1].content;
    expect(plain).not.toContain('fast, cheap');
    const described = buildConductorPrompt({ question: QUESTION, workers: pool, describeWorkers: true })[1].content;
    expect(described.endsWith('Model id 0: fast, cheap\nModel id 1\nModel id 2: careful with code')).toBe(true);
  });

  it('leaves out examples longer than the step limit', () => {
    const two = buildConductorPrompt({ question: QUESTION, workers: 3, kind: 'code', maxSteps: 2 })[1].content;
    const blocks = exampleBlocks(two);
    expect(blocks.map((b) => parseWorkflow(b, { workers: 3, maxSteps: 2 }).ok)).toEqual([true, true, true, true]);
    expect(pickExamples('code', 4, 2).map((e) => e.domain)).toEqual(['arithmetic', 'history', 'writing', 'logic']);
    expect(pickExamples('code', 4, 1).map((e) => e.domain)).toEqual(['history', 'language']);
  });

  it('has four other-domain examples for every kind and every limit from 2 steps', () => {
    for (const kind of TASK_KINDS) {
      for (let maxSteps = 2; maxSteps <= 5; maxSteps++) {
        const picked = pickExamples(kind, 4, maxSteps);
        expect(picked, `${kind} ${maxSteps}`).toHaveLength(4);
        for (const e of picked) expect(e.steps.length).toBeLessThanOrEqual(maxSteps);
      }
    }
    const domains = (kind: TaskKind) => pickExamples(kind, EXAMPLES.length).map((e) => e.domain);
    expect(domains('mcq')).not.toContain('medical');
    expect(domains('mcq')).not.toContain('history');
    expect(domains('exact')).not.toContain('history');
    expect(domains('open')).not.toContain('writing');
    expect(domains('gsm8k')).not.toContain('logic');
  });

  it('folds example model ids into a small pool', () => {
    const single = buildConductorPrompt({ question: QUESTION, workers: 1, kind: 'math' })[1].content;
    for (const block of exampleBlocks(single)) expect(parseWorkflow(block, { workers: 1 }).ok).toBe(true);
  });
});

describe('buildRecursionTurn', () => {
  const prompt = buildConductorPrompt({ question: QUESTION, workers: 3 });
  const completion = ' Simple sum.\nmodel_id = [0]\nsubtasks = ["Add them up"]\naccess_list = [[]]';
  const turn = buildRecursionTurn({ messages: prompt, completion, finalResponse: '5050', maxSteps: 4 });

  it('keeps the prompt, joins prefill and completion, then asks about the final response', () => {
    expect(turn.map((m) => m.role)).toEqual(['system', 'user', 'assistant', 'user', 'assistant']);
    expect(turn.slice(0, 2)).toEqual(prompt.slice(0, 2));
    expect(turn[2].content).toBe(CONDUCTOR_PREFILL + completion);
    expect(turn[3].content).toContain('<final_response>\n5050\n</final_response>');
    expect(turn[3].content).toContain('model_id = []\nsubtasks = []\naccess_list = []');
    expect(turn[3].content).toContain('at most 4 steps');
    expect(turn[4].content).toBe(RECURSION_PREFILL);
  });

  it('does not change the messages it was given', () => {
    expect(prompt).toHaveLength(3);
    expect(prompt[2].content).toBe(CONDUCTOR_PREFILL);
  });

  it('asks for lists that parse as "keep" in a recursion round', () => {
    const keep = turn[3].content.slice(turn[3].content.indexOf('model_id = []'));
    expect(parseWorkflow(keep, { workers: 3, recursion: true })).toEqual({ ok: true, keep: true, workflow: { steps: [] } });
  });
});

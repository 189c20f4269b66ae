import { describe, expect, it } from 'vitest';
import { parseWorkflow, renderWorkflow, type AccessMode, type Workflow } from '../../../../../src/core/workflow/index.ts';
import { createWorkflowConstraint, FIXED_SUBTASKS, workflowTokenBound, type WorkflowConstraint } from '../../../../../src/core/workflow/constrain/index.ts';
import { seededRandom } from '../../../../../src/core/random.ts';
import { allowedIds, answerOf, bothVocabularies, sampleAnswer, type TestVocab } from './tokenizers.ts';

// With this test's short subtask limit, no subtask state can share a cached mask: few walks on Qwen3.
const vocabularies = await bothVocabularies(5, 40);

/** Feeds `text`'s tokens through the constraint; the index of the first refused token, or -1. */
function firstRefused(c: WorkflowConstraint, v: TestVocab, text: string): { refused: number; accepting: boolean } {
  let state = c.start();
  const ids = v.tokenizer.encode(text);
  for (let k = 0; k < ids.length; k++) {
    if (!c.isAllowed(state, ids[k])) return { refused: k, accepting: false };
    state = c.advance(state, ids[k]);
  }
  return { refused: -1, accepting: c.isAccepting(state) && v.eosIds.every((id) => c.isAllowed(state, id)) };
}

describe.each(vocabularies)('createWorkflowConstraint on %s', (_, v, walks) => {
  it('samples only answers the parser reads as valid workflows for the pool', () => {
    const rand = seededRandom(11);
    for (let walk = 0; walk < walks; walk++) {
      const workers = 1 + Math.floor(rand() * 11);
      const maxSteps = 1 + Math.floor(rand() * 5);
      const access: AccessMode = walk % 2 ? 'positional' : 'binary';
      const c = createWorkflowConstraint({ ...v, workers, maxSteps, access, maxSubtaskChars: 48, allowReasoning: walk % 4 !== 3 });
      const ids = sampleAnswer(c, v, rand, Math.floor(rand() * 12));
      expect(v.eosIds).toContain(ids[ids.length - 1]);
      const text = answerOf(v, ids);
      const parsed = parseWorkflow(text, { workers, maxSteps, access });
      expect(parsed.ok, `${text}\n${JSON.stringify(parsed)}`).toBe(true);
      const steps = (parsed as { workflow: Workflow }).workflow.steps;
      expect(steps.length).toBeGreaterThanOrEqual(1);
      expect(steps.length).toBeLessThanOrEqual(maxSteps);
      for (const step of steps) expect(step.worker).toBeLessThan(workers);
    }
  }, 60_000);

  it('ends every answer with a complete workflow within its token budget, however the tokens are drawn', () => {
    // Uniform draws from the mask alone (no help to leave the reasoning): without the budget, most
    // of these would still be rambling when the budget runs out.
    const rand = seededRandom(12);
    for (let walk = 0; walk < walks; walk++) {
      const workers = 1 + Math.floor(rand() * 6);
      const maxSteps = 1 + Math.floor(rand() * 5);
      const access: AccessMode = walk % 2 ? 'positional' : 'binary';
      const c = createWorkflowConstraint({ ...v, workers, maxSteps, access, allowReasoning: walk % 4 !== 3 });
      const budget = 40 + Math.floor(rand() * 120);
      let state = c.start();
      const ids: number[] = [];
      while (ids.length < budget && !c.isFinished(state)) {
        const allowed = allowedIds(c.mask(state, budget - ids.length), c.vocabSize);
        const id = allowed[Math.floor(rand() * allowed.length)];
        state = c.advance(state, id);
        ids.push(id);
      }
      const text = answerOf(v, ids);
      expect(c.isFinished(state) || c.isAccepting(state), text).toBe(true);
      const parsed = parseWorkflow(text, { workers, maxSteps, access });
      expect(parsed.ok, `${budget} tokens: ${text}\n${JSON.stringify(parsed)}`).toBe(true);
    }
  }, 120_000);

  it('writes the fixed subtasks word for word, leaving the workers, the number of steps and the access to choose', () => {
    const rand = seededRandom(13);
    const seen = new Set<string>();
    for (let walk = 0; walk < walks; walk++) {
      const maxSteps = 1 + (walk % 3);
      const format = { workers: 4, maxSteps, access: 'binary' as const, allowReasoning: false, fixedSubtasks: FIXED_SUBTASKS };
      const c = createWorkflowConstraint({ ...v, ...format });
      const budget = workflowTokenBound(format) + 1;
      let state = c.start();
      const ids: number[] = [];
      while (!c.isFinished(state)) {
        const allowed = allowedIds(c.mask(state, budget - ids.length), c.vocabSize);
        const id = allowed[Math.floor(rand() * allowed.length)];
        state = c.advance(state, id);
        ids.push(id);
      }
      const text = answerOf(v, ids);
      const parsed = parseWorkflow(text, { workers: 4, maxSteps });
      expect(parsed.ok, text).toBe(true);
      const { steps } = (parsed as { workflow: Workflow }).workflow;
      expect(steps.map((s) => s.subtask)).toEqual(steps.map((_, i) => FIXED_SUBTASKS[Math.min(i, FIXED_SUBTASKS.length - 1)]));
      seen.add(steps.map((s) => `${s.worker}:${JSON.stringify(s.access)}`).join(' '));
    }
    expect(seen.size).toBeGreaterThan(Math.min(walks, 5) / 2);
    const fixed = createWorkflowConstraint({ ...v, workers: 4, maxSteps: 2, allowReasoning: false, fixedSubtasks: FIXED_SUBTASKS });
    expect(firstRefused(fixed, v, 'model_id = [2]\nsubtasks = ["Solve the question."]\naccess_list = [[]]')).toEqual({ refused: -1, accepting: true });
    expect(firstRefused(fixed, v, 'model_id = [2]\nsubtasks = ["Solve it."]\naccess_list = [[]]').refused).toBeGreaterThan(0);
    expect(() => createWorkflowConstraint({ ...v, workers: 4, fixedSubtasks: ['Say "hi".'] })).toThrow(/fixedSubtasks/);
  }, 60_000);

  it('keeps every choice open that still fits a short budget, and ends in time after taking it', () => {
    const c = createWorkflowConstraint({ ...v, workers: 4, maxSteps: 2, allowReasoning: false });
    let state = c.start();
    for (const id of v.tokenizer.encode('model_id = [')) state = c.advance(state, id);
    const digits = ['0', '1', '2', '3'].map((d) => v.tokenizer.encode(d)[0]);
    // Ending from here takes some twenty tokens (']', the subtasks and the access list): 50 leave room to choose.
    const allowed = allowedIds(c.mask(state, 50), c.vocabSize);
    for (const d of digits) expect(allowed, v.tokenizer.decode([d])).toContain(d);
    for (const id of v.tokenizer.encode('2')) state = c.advance(state, id);
    const comma = v.tokenizer.encode(',')[0];
    const close = v.tokenizer.encode(']')[0];
    const allows = (s: typeof state, remaining: number, id: number) => allowedIds(c.mask(s, remaining), c.vocabSize).includes(id);
    // A second step is offered from some budget on, and only the one-step plan just below it.
    const fits = Array.from({ length: 60 }, (_, r) => allows(state, r + 1, comma));
    const least = fits.indexOf(true) + 1;
    expect(least).toBeGreaterThan(1);
    expect(fits.slice(least - 1).every(Boolean)).toBe(true);
    expect(allows(state, least - 1, close)).toBe(true);
    // Taking the comma at that budget still ends with a complete two-step workflow: each draw the first allowed token.
    const ids = [comma];
    let s = c.advance(state, comma);
    while (!c.isFinished(s)) {
      const id = allowedIds(c.mask(s, least - ids.length), c.vocabSize)[0];
      s = c.advance(s, id);
      ids.push(id);
    }
    expect(ids.length).toBeLessThanOrEqual(least);
    const parsed = parseWorkflow(`model_id = [2${answerOf(v, ids)}`, { workers: 4, maxSteps: 2 });
    expect(parsed.ok && parsed.workflow.steps.length).toBe(2);
  });

  it('masks what would break the workflow: an id outside the pool, one step too many, end-of-sequence too early', () => {
    const c = createWorkflowConstraint({ ...v, workers: 3, maxSteps: 5 });
    expect(firstRefused(c, v, 'Plan.\nmodel_id = [2').refused).toBe(-1);
    expect(firstRefused(c, v, 'Plan.\nmodel_id = [3').refused).toBeGreaterThan(0);
    expect(firstRefused(c, v, 'Plan.\nmodel_id = [0, 1, 2, 0, 1]').refused).toBe(-1);
    expect(firstRefused(c, v, 'Plan.\nmodel_id = [0, 1, 2, 0, 1, 2]').refused).toBeGreaterThan(0);
    const open = firstRefused(c, v, 'Plan.\nmodel_id = [0]\nsubtasks = ["Solve it."]');
    expect(open).toEqual({ refused: -1, accepting: false });
  });

  it('lets every rendered workflow through, token by token, with end-of-sequence after it', () => {
    const rand = seededRandom(5);
    const subtasks = ['Solve the equation x^2 = 4.', 'Check the "solution" above, then write <answer>x</answer>.', 'Prüfe: naïve 数学 😀'];
    for (let trial = 0; trial < 24; trial++) {
      const workers = 1 + Math.floor(rand() * 11);
      const access: AccessMode = trial % 2 ? 'positional' : 'binary';
      const n = 1 + Math.floor(rand() * 5);
      const workflow: Workflow = {
        steps: Array.from({ length: n }, (_, i) => ({
          worker: Math.floor(rand() * workers),
          subtask: subtasks[Math.floor(rand() * subtasks.length)],
          access: rand() < 0.5 ? 'all' : access === 'positional' && i > 0 ? [i - 1] : [],
        })),
      };
      const c = createWorkflowConstraint({ ...v, workers, access });
      const reasoning = trial % 3 === 0 ? '' : trial % 3 === 1 ? 'Split: solve, then check.\n' : '<think>\nsteps? (two)\n</think>\n\n';
      const text = reasoning + renderWorkflow(workflow);
      expect(firstRefused(c, v, text), text).toEqual({ refused: -1, accepting: true });
    }
  });
});

/**
 * Pieces chosen to attack the parser: labels, every separator, both openers, quotes, thinking tags,
 * fences, escapes, non-ASCII spaces and U+FFFD, plus the single letters of the lists' heads (so, like a
 * byte-level vocabulary, every started head can be finished); random walks over them try the reasoning
 * rules far harder than real tokens do.
 */
const PIECES = [
  'subtasks',
  'model_id',
  'Model IDs',
  'access',
  'access_list',
  ':',
  '=',
  ' = [',
  '=>',
  '->',
  '\uff1a',
  '>',
  ' ',
  '\n',
  '\u00a0',
  '\u3000',
  '[',
  '(',
  ']',
  ')',
  '"',
  "'",
  '\u201c',
  '<',
  '<think>',
  '</think>',
  '</THINKING>',
  '<thi',
  'nk>',
  '`',
  '```python',
  '*',
  '**',
  'x',
  'It',
  '0',
  '1',
  '2',
  '12',
  ',',
  ', ',
  '\\',
  '\\"',
  'all',
  '"all"',
  '\ufffd',
  '#',
  '\nmodel_id = [',
  ...'modelidsubtackn_',
  '<|eos|>',
];
const PIECES_EOS = PIECES.length - 1;

describe('createWorkflowConstraint on a vocabulary of adversarial pieces', () => {
  it('samples only answers the parser reads as valid workflows', () => {
    const rand = seededRandom(23);
    for (let walk = 0; walk < 300; walk++) {
      const workers = 1 + Math.floor(rand() * 13);
      const maxSteps = 1 + Math.floor(rand() * 4);
      const access: AccessMode = walk % 2 ? 'positional' : 'binary';
      const recursion = walk % 5 === 0;
      const c = createWorkflowConstraint({ vocab: PIECES, eosIds: [PIECES_EOS], workers, maxSteps, access, recursion, maxSubtaskChars: 12 });
      let state = c.start();
      let text = '';
      while (!c.isFinished(state)) {
        const allowed = allowedIds(c.mask(state), PIECES.length);
        expect(allowed.length, `dead end after ${JSON.stringify(text)}`).toBeGreaterThan(0);
        const id = allowed[Math.floor(rand() * allowed.length)];
        state = c.advance(state, id);
        if (id !== PIECES_EOS) text += PIECES[id];
        expect(text.length, text).toBeLessThan(5000);
      }
      const parsed = parseWorkflow(text, { workers, maxSteps, access, recursion });
      expect(parsed.ok, `${JSON.stringify(text)}\n${JSON.stringify(parsed)}`).toBe(true);
    }
  });
});

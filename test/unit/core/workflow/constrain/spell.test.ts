/**
 * TokenConstraint.spell: a chosen plan written as constrained decoding would write it. Its tokens must
 * spell the plan, end with end-of-sequence, be allowed where they stand, and where the format leaves no
 * choice be exactly what jump-forward feeds; a text the format refuses, or one that does not fit the
 * budget, has no spelling.
 */
import { describe, expect, it } from 'vitest';
import { renderWorkflow, type Workflow } from '../../../../../src/core/workflow/index.ts';
import { createWorkflowConstraint, FIXED_SUBTASKS, workflowTokenBound, type WorkflowConstraint } from '../../../../../src/core/workflow/constrain/index.ts';
import { seededRandom } from '../../../../../src/core/random.ts';
import { allowedIds, answerOf, bothVocabularies, type TestVocab } from './tokenizers.ts';

const vocabularies = await bothVocabularies(3, 10);

/** Replays `ids` as decoding would take them: each forced run must be the next tokens, each other token allowed. */
function expectDecodable(c: WorkflowConstraint, ids: readonly number[], budget: number) {
  let state = c.start();
  let i = 0;
  while (i < ids.length) {
    const forced = c.forced?.(state, budget - i) ?? [];
    if (forced.length > 0) {
      expect(ids.slice(i, i + forced.length)).toEqual(forced);
      for (const id of forced) state = c.advance(state, id);
      i += forced.length;
    } else {
      expect(allowedIds(c.mask(state, budget - i), c.vocabSize)).toContain(ids[i]);
      state = c.advance(state, ids[i++]);
    }
  }
  expect(c.isFinished(state)).toBe(true);
}

function randomWorkflow(rand: () => number, workers: number, maxSteps: number, subtask: (step: number) => string): Workflow {
  const steps = 1 + Math.floor(rand() * maxSteps);
  return {
    steps: Array.from({ length: steps }, (_, i) => ({
      worker: Math.floor(rand() * workers),
      subtask: subtask(i),
      access: i > 0 && rand() < 0.5 ? 'all' : [],
    })),
  };
}

describe.each(vocabularies)('TokenConstraint.spell on %s', (_, v: TestVocab, walks) => {
  it('writes random plans as jump-forward decoding would: the plan word for word, then end-of-sequence', () => {
    const rand = seededRandom(7);
    for (let walk = 0; walk < walks; walk++) {
      const workers = 1 + Math.floor(rand() * 12);
      const maxSteps = 1 + Math.floor(rand() * 3);
      const fixed = walk % 2 === 0;
      const format = { workers, maxSteps, allowReasoning: false, maxSubtaskChars: 40, ...(fixed ? { fixedSubtasks: FIXED_SUBTASKS } : {}) };
      const c = createWorkflowConstraint({ ...v, ...format, jumpForward: true });
      const plan = renderWorkflow(
        randomWorkflow(rand, workers, maxSteps, (i) => (fixed ? FIXED_SUBTASKS[Math.min(i, 1)] : ['Add the numbers.', 'Say why, then check it', 'Ok'][i % 3])),
      );
      const budget = workflowTokenBound(format) + 1;
      const ids = c.spell(c.start(), plan, budget);
      expect(ids, plan).toBeDefined();
      expect(answerOf(v, ids!)).toBe(plan);
      expect(v.eosIds).toContain(ids!.at(-1));
      expectDecodable(c, ids!, budget);
    }
  }, 120_000);

  it('spells without jump-forward too, each token a choice of the fewest-token spelling', () => {
    const c = createWorkflowConstraint({ ...v, workers: 11, maxSteps: 2, allowReasoning: false });
    const plan = renderWorkflow({ steps: [{ worker: 10, subtask: 'Solve the question.', access: [] }] });
    const ids = c.spell(c.start(), plan)!;
    expect(answerOf(v, ids)).toBe(plan);
    expectDecodable(c, ids, Infinity);
    // Nothing forced, so every token was a choice, of the rest's fewest-token spelling: far fewer than one a character.
    expect(ids.length - 1).toBeLessThan(plan.length / 1.5);
  });

  it('has no spelling for a plan the format refuses, nor for one past the budget', () => {
    const format = { workers: 3, maxSteps: 1, allowReasoning: false, fixedSubtasks: FIXED_SUBTASKS, jumpForward: true };
    const c = createWorkflowConstraint({ ...v, ...format });
    const plan = (worker: number, subtask = FIXED_SUBTASKS[0]) => renderWorkflow({ steps: [{ worker, subtask, access: [] }] });
    expect(c.spell(c.start(), plan(2))).toBeDefined();
    expect(c.spell(c.start(), plan(3))).toBeUndefined();
    expect(c.spell(c.start(), plan(1, 'Something else.'))).toBeUndefined();
    expect(c.spell(c.start(), renderWorkflow({ steps: [0, 1].map((worker) => ({ worker, subtask: FIXED_SUBTASKS[0], access: [] })) }))).toBeUndefined();
    expect(c.spell(c.start(), `${plan(1)} `)).toBeUndefined();
    const ids = c.spell(c.start(), plan(1))!;
    expect(c.spell(c.start(), plan(1), ids.length)).toEqual(ids);
    expect(c.spell(c.start(), plan(1), 4)).toBeUndefined();
  });
});

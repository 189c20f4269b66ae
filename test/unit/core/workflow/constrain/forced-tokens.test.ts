/**
 * TokenConstraint.forced (jump-forward decoding): the tokens spelling the text a state leaves no
 * choice in. They must be allowed where they stand, skip no choice, stop at the first one, and spell
 * a plan's fixed parts in no more tokens than the tokenizer itself would.
 */
import { describe, expect, it } from 'vitest';
import { parseWorkflow, type AccessMode } from '../../../../../src/core/workflow/index.ts';
import { createWorkflowConstraint, FIXED_SUBTASKS, workflowTokenBound, type WorkflowConstraint } from '../../../../../src/core/workflow/constrain/index.ts';
import { seededRandom } from '../../../../../src/core/random.ts';
import { allowedIds, answerOf, bothVocabularies, textOf } from './tokenizers.ts';

const vocabularies = await bothVocabularies(4, 12);

type State = ReturnType<WorkflowConstraint['start']>;

describe.each(vocabularies)('TokenConstraint.forced on %s', (_, v, walks) => {
  it('feeds only allowed tokens where the text has no choice, and stops at the first choice', () => {
    const rand = seededRandom(21);
    for (let walk = 0; walk < walks; walk++) {
      const workers = 1 + Math.floor(rand() * 6);
      const maxSteps = 1 + Math.floor(rand() * 3);
      const access: AccessMode = walk % 2 ? 'positional' : 'binary';
      const c = createWorkflowConstraint({ ...v, workers, maxSteps, access, maxSubtaskChars: 24, allowReasoning: false, jumpForward: true });
      const budget = 200;
      let state: State = c.start();
      const ids: number[] = [];
      let jumped = 0;
      while (!c.isFinished(state)) {
        const forced = c.forced!(state, budget - ids.length);
        for (const id of forced) {
          expect(c.offersChoice(state, budget - ids.length), textOf(v, ids)).toBe(false);
          expect(allowedIds(c.mask(state, budget - ids.length), c.vocabSize)).toContain(id);
          state = c.advance(state, id);
          ids.push(id);
        }
        jumped += forced.length;
        if (c.isFinished(state)) break;
        expect(c.offersChoice(state, budget - ids.length), `${textOf(v, ids)} then no choice, yet nothing forced`).toBe(true);
        const allowed = allowedIds(c.mask(state, budget - ids.length), c.vocabSize);
        const id = allowed[Math.floor(rand() * allowed.length)];
        state = c.advance(state, id);
        ids.push(id);
      }
      expect(jumped).toBeGreaterThan(0);
      const text = answerOf(v, ids);
      expect(parseWorkflow(text, { workers, maxSteps, access }).ok, text).toBe(true);
    }
  }, 120_000);

  it("spells a fixed-subtask plan's fixed text word for word, each run in no more tokens than the tokenizer's, then end-of-sequence", () => {
    const format = { workers: 4, maxSteps: 1, access: 'binary' as const, allowReasoning: false, fixedSubtasks: FIXED_SUBTASKS };
    const c = createWorkflowConstraint({ ...v, ...format, jumpForward: true });
    const plan = `model_id = [2]\nsubtasks = ["${FIXED_SUBTASKS[0]}"]\naccess_list = [[]]`;
    const budget = workflowTokenBound(format) + 1;
    let state = c.start();
    const taken: number[] = [];
    const runs: string[] = [];
    const written = () => answerOf(v, taken);
    // Where the plan has a choice, take its next character; else take what is forced, which must be the plan's next text.
    while (!c.isFinished(state)) {
      const forced = c.forced!(state, budget - taken.length);
      const before = written();
      const ids = forced.length > 0 ? forced : v.tokenizer.encode(plan[before.length]);
      for (const id of ids) state = c.advance(state, id);
      taken.push(...ids);
      if (forced.length > 0) {
        const run = written().slice(before.length);
        expect(plan.slice(before.length).startsWith(run) && run.length > 0, `${before} + ${run}`).toBe(true);
        expect(forced.filter((id) => !v.eosIds.includes(id)).length, run).toBeLessThanOrEqual(v.tokenizer.encode(run).length);
        runs.push(run);
      }
    }
    expect(written()).toBe(plan);
    expect(v.eosIds).toContain(taken[taken.length - 1]);
    expect(runs[0]).toBe('model_id = [');
    const subtasks = runs.find((r) => r.includes(FIXED_SUBTASKS[0]))!;
    expect(subtasks).toContain(`subtasks = ["${FIXED_SUBTASKS[0]}"]`);
  });

  it('is there only where the format asks for jump-forward: Conductors trained before it decode one token at a time', () => {
    const format = { workers: 3, maxSteps: 1, allowReasoning: false, fixedSubtasks: FIXED_SUBTASKS };
    expect(createWorkflowConstraint({ ...v, ...format }).forced).toBeUndefined();
    expect(createWorkflowConstraint({ ...v, ...format, jumpForward: true }).forced).toBeTypeOf('function');
  });

  it('keeps within the budget: forced tokens fit what remains, and none past it', () => {
    const c = createWorkflowConstraint({ ...v, workers: 3, maxSteps: 1, allowReasoning: false, fixedSubtasks: FIXED_SUBTASKS, jumpForward: true });
    expect(c.forced!(c.start(), 0)).toEqual([]);
    const few = c.forced!(c.start(), 2);
    expect(few.length).toBeLessThanOrEqual(2);
    let state = c.start();
    few.forEach((id, k) => {
      expect(allowedIds(c.mask(state, 2 - k), c.vocabSize)).toContain(id);
      state = c.advance(state, id);
    });
  });
});

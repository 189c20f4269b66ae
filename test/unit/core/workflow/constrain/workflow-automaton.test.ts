import { describe, expect, it } from 'vitest';
import { BatonError } from '../../../../../src/core/errors/index.ts';
import { parseWorkflow, renderWorkflow, type Access, type Workflow } from '../../../../../src/core/workflow/index.ts';
import { createWorkflowAutomaton, walkText, type WorkflowFormat } from '../../../../../src/core/workflow/constrain/index.ts';
import { seededRandom } from '../../../../../src/core/random.ts';

/** 'accept' (a whole answer), 'prefix' (may go on) or 'reject'. */
function verdict(format: WorkflowFormat, text: string): 'accept' | 'prefix' | 'reject' {
  const automaton = createWorkflowAutomaton(format);
  const end = walkText(automaton, automaton.start(), text);
  return end === undefined ? 'reject' : automaton.accepts(end) ? 'accept' : 'prefix';
}

const SUBTASKS = ['Solve it.', 'Check "step 1" again\nthen fix it', 'C:\\path and \\frac{1}{2}', 'x < y <think>', '  padded  ', 'naïve café 数学 😀'];

function randomWorkflow(rand: () => number, workers: number, maxSteps: number, positional: boolean): Workflow {
  const n = 1 + Math.floor(rand() * maxSteps);
  const steps = Array.from({ length: n }, (_, i) => {
    const earlier = Array.from({ length: i }, (_, k) => k).filter(() => rand() < 0.5);
    const access: Access = rand() < 0.4 ? 'all' : positional ? earlier : [];
    return { worker: Math.floor(rand() * workers), subtask: SUBTASKS[Math.floor(rand() * SUBTASKS.length)], access };
  });
  return { steps };
}

const BLOCK = 'model_id = [2, 0]\nsubtasks = ["Solve it.", "Check it."]\naccess_list = [[], "all"]';

describe('createWorkflowAutomaton', () => {
  it('accepts every rendered workflow, with or without reasoning before it, and the parser reads it back', () => {
    const rand = seededRandom(7);
    for (let trial = 0; trial < 200; trial++) {
      const workers = 1 + Math.floor(rand() * 12);
      const maxSteps = 1 + Math.floor(rand() * 6);
      const access = rand() < 0.5 ? 'binary' : 'positional';
      const workflow = randomWorkflow(rand, workers, maxSteps, access === 'positional');
      const rendered = renderWorkflow(workflow);
      const text = trial % 2 ? rendered : `Two models are enough: step one solves, step two checks.\n${rendered}`;
      expect(verdict({ workers, maxSteps, access }, text), text).toBe('accept');
      expect(parseWorkflow(text, { workers, maxSteps, access })).toEqual({ ok: true, workflow });
    }
  });

  it('takes the separators a model may write: no space, ["all"], and three empty lists when recursing', () => {
    expect(verdict({ workers: 3 }, 'model_id = [2,0]\nsubtasks = ["a","b"]\naccess_list = [["all"],[]]')).toBe('accept');
    const empty = 'model_id = []\nsubtasks = []\naccess_list = []';
    expect(verdict({ workers: 3, recursion: true }, empty)).toBe('accept');
    expect(verdict({ workers: 3 }, empty)).toBe('reject');
  });

  it('refuses ids outside the pool, too many steps and lists of unequal length', () => {
    expect(verdict({ workers: 3 }, 'model_id = [3')).toBe('reject');
    expect(verdict({ workers: 12 }, 'model_id = [11, 12')).toBe('reject');
    expect(verdict({ workers: 12 }, 'model_id = [11, 01')).toBe('reject');
    expect(verdict({ workers: 3, maxSteps: 5 }, 'model_id = [0, 1, 2, 0, 1]')).toBe('prefix');
    expect(verdict({ workers: 3, maxSteps: 5 }, 'model_id = [0, 1, 2, 0, 1,')).toBe('reject');
    expect(verdict({ workers: 3 }, 'model_id = [0, 1]\nsubtasks = ["a"]')).toBe('reject');
    expect(verdict({ workers: 3 }, 'model_id = [0]\nsubtasks = ["a", ')).toBe('reject');
    expect(verdict({ workers: 3 }, 'model_id = [0]\nsubtasks = ["a"]\naccess_list = []')).toBe('reject');
  });

  it('allows access entries by mode: indices of earlier steps only when positional, each once', () => {
    const two = (access: string) => `model_id = [0, 1]\nsubtasks = ["a", "b"]\naccess_list = [[], ${access}]`;
    expect(verdict({ workers: 2, access: 'positional' }, two('[0]'))).toBe('accept');
    expect(verdict({ workers: 2, access: 'binary' }, two('[0]'))).toBe('reject');
    expect(verdict({ workers: 2, access: 'positional' }, two('[1]'))).toBe('reject'); // itself
    expect(verdict({ workers: 2, access: 'positional' }, two('[0, 0]'))).toBe('reject');
    expect(verdict({ workers: 2, access: 'positional' }, 'model_id = [0]\nsubtasks = ["a"]\naccess_list = [[0')).toBe('reject');
    const twelve = { workers: 1, maxSteps: 12, access: 'positional' as const };
    const ids = Array(12).fill(0).join(', ');
    const subtasks = Array(12).fill('"a"').join(', ');
    const head = `model_id = [${ids}]\nsubtasks = [${subtasks}]\naccess_list = [[], [], [], [], [], [], [], [], [], [], [], `;
    expect(verdict(twelve, `${head}[10, 1, 0]]`)).toBe('accept');
    expect(verdict(twelve, `${head}[1, 10, 11`)).toBe('reject');
  });

  it('keeps subtasks readable: closed, not blank, escaped, no raw line break or thinking tag, within the length limit', () => {
    const one = (literal: string) => `model_id = [0]\nsubtasks = [${literal}]\naccess_list = ["all"]`;
    expect(verdict({ workers: 1 }, one('"say \\"hi\\""'))).toBe('accept');
    expect(verdict({ workers: 1 }, one('"  "'))).toBe('reject');
    expect(verdict({ workers: 1 }, one('""'))).toBe('reject');
    expect(verdict({ workers: 1 }, one('"a\nb"'))).toBe('reject');
    expect(verdict({ workers: 1 }, one('"a <think> b"'))).toBe('reject');
    expect(verdict({ workers: 1 }, one('"a </THINKING> b"'))).toBe('reject');
    expect(verdict({ workers: 1, maxSubtaskChars: 5 }, one('"abcde"'))).toBe('accept');
    expect(verdict({ workers: 1, maxSubtaskChars: 5 }, one('"abc\\n"'))).toBe('accept');
    expect(verdict({ workers: 1, maxSubtaskChars: 5 }, one('"abcdef"'))).toBe('reject');
  });

  it('ends after the access list: nothing may follow, and nothing shorter is complete', () => {
    expect(verdict({ workers: 3 }, BLOCK)).toBe('accept');
    expect(verdict({ workers: 3 }, `${BLOCK}\n`)).toBe('reject');
    expect(verdict({ workers: 3 }, BLOCK.slice(0, -1))).toBe('prefix');
    expect(verdict({ workers: 3, allowReasoning: false }, `Plan:\n${BLOCK}`)).toBe('reject');
    expect(verdict({ workers: 3, allowReasoning: false }, BLOCK)).toBe('accept');
  });

  it('keeps labelled lists out of the reasoning, where the parser would read them instead', () => {
    for (const opener of ['subtasks: [', 'model_id = (', 'access:\n[', 'model ids => **[', 'subtasks:\n```python\n[', 'access: <b>[']) {
      expect(verdict({ workers: 3 }, `Draft ${opener}`), opener).toBe('reject');
    }
    const prose = 'Check f(x) and a[i] (twice); ratio 1:2 is fine.\n';
    expect(verdict({ workers: 3 }, prose + BLOCK)).toBe('accept');
    expect(parseWorkflow(prose + BLOCK, { workers: 3 }).ok).toBe(true);
  });

  it('follows thinking tags: the lists start only outside a thinking block, and text it hides stays harmless', () => {
    const thought = '<think>\nmodel_id: [9] maybe (or not)\n</think>\n';
    expect(verdict({ workers: 3 }, thought + BLOCK)).toBe('accept');
    expect(parseWorkflow(thought + BLOCK, { workers: 3 }).ok).toBe(true);
    // Inside an unclosed block the lists are only thinking: the parser would drop them.
    expect(verdict({ workers: 3 }, `<think>\n${BLOCK}`)).toBe('prefix');
    // The tag is dropped, joining `subtasks:` and `[`: still refused.
    expect(verdict({ workers: 3 }, 'subtasks: <think>x</think>[')).toBe('reject');
    // An orphan closing tag drops everything before it, so the text starts afresh.
    expect(verdict({ workers: 3 }, `plan ahead</think>${BLOCK}`)).toBe('accept');
  });

  it('rejects impossible formats with a BatonError that names the option', () => {
    for (const format of [{ workers: 0 }, { workers: 2, maxSteps: 0 }, { workers: 2, maxSteps: 40 }, { workers: 2, maxSubtaskChars: 0 }]) {
      const error = (() => {
        try {
          createWorkflowAutomaton(format);
        } catch (e) {
          return e;
        }
      })();
      expect(BatonError.is(error, 'data/invalid'), JSON.stringify(format)).toBe(true);
    }
  });
});

import { describe, expect, it } from 'vitest';
import { parseWorkflow, renderWorkflow, type Access, type Workflow } from '../../../../src/core/workflow/index.ts';

/** mulberry32: a tiny seeded generator, so a failure can be replayed. */
function rng(seed: number): () => number {
  return () => {
    seed = (seed + 0x6d2b79f5) | 0;
    let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

// Pieces chosen to stress the reader: quotes of every kind, escapes, brackets, LaTeX, control
// characters, labels, comment and think markers, astral unicode.
const PIECES = [
  'Solve',
  ' ',
  'the',
  "'",
  '"',
  '\\',
  '\\n',
  '\n',
  '\t',
  '\r',
  '[',
  ']',
  '(',
  ')',
  ',',
  '#',
  'é',
  '✓',
  '😀',
  '中文',
  '\u201c',
  '\u201d',
  '\u2018',
  '\u2019',
  '\\frac',
  '\neq',
  '\theta',
  '\\u00e9',
  '"""',
  "'''",
  'model_id = [0]',
  'access_list:',
  '<think>',
  '</think>',
  '\u0000',
  '\u007f',
  '\u2028',
  '```',
  '**',
  'all',
  '"all"',
];

function randomWorkflow(next: () => number): Workflow {
  const n = 1 + Math.floor(next() * 5);
  const pick = (k: number) => Math.floor(next() * k);
  return {
    steps: Array.from({ length: n }, (_, i) => {
      let subtask = 'x';
      const len = pick(12);
      for (let j = 0; j < len; j++) subtask += PIECES[pick(PIECES.length)];
      const access: Access = next() < 0.3 ? 'all' : Array.from({ length: i }, (_, k) => k).filter(() => next() < 0.5);
      return { worker: pick(7), subtask, access };
    }),
  };
}

describe('renderWorkflow', () => {
  it('writes the three lists the Conductor writes', () => {
    const text = renderWorkflow({
      steps: [
        { worker: 2, subtask: 'Solve "it"', access: [] },
        { worker: 0, subtask: 'Check\nit', access: 'all' },
        { worker: 1, subtask: 'Merge', access: [0, 1] },
      ],
    });
    expect(text).toBe('model_id = [2, 0, 1]\nsubtasks = ["Solve \\"it\\"", "Check\\nit", "Merge"]\naccess_list = [[], "all", [0, 1]]');
  });

  it('escapes a line break before LaTeX-like letters so it does not read back as a command', () => {
    const w: Workflow = { steps: [{ worker: 0, subtask: 'a\neq b\tau', access: [] }] };
    expect(renderWorkflow(w)).toContain('"a\\x0aeq b\\x09au"');
    expect(parseWorkflow(renderWorkflow(w), {})).toEqual({ ok: true, workflow: w });
  });

  it('reads back to the same workflow for 500 random workflows', () => {
    const next = rng(1234);
    for (let t = 0; t < 500; t++) {
      const w = randomWorkflow(next);
      const text = renderWorkflow(w);
      const parsed = parseWorkflow(text, { workers: 7, access: 'positional' });
      expect(parsed, text).toEqual({ ok: true, workflow: w });
    }
  });
});

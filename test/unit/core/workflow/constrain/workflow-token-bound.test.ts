/**
 * workflowTokenBound: random walks through the workflow constraint over a one-character-per-token
 * vocabulary (the most tokens any text can take) always end within the bound, and the longest
 * workflow written by hand fits in it exactly or nearly.
 */
import { describe, expect, it } from 'vitest';
import { parseWorkflow, type AccessMode } from '../../../../../src/core/workflow/index.ts';
import { workflowTokenBound, createWorkflowConstraint } from '../../../../../src/core/workflow/constrain/index.ts';
import { seededRandom } from '../../../../../src/core/random.ts';

// Printable ASCII, one character per token, then end-of-sequence.
const CHARS = Array.from({ length: 95 }, (_, i) => String.fromCharCode(32 + i)).concat('\n');
const VOCAB = [...CHARS, ''];
const EOS = VOCAB.length - 1;

const FORMATS: { workers: number; maxSteps: number; access: AccessMode; maxSubtaskChars: number }[] = [
  { workers: 3, maxSteps: 2, access: 'binary', maxSubtaskChars: 6 },
  { workers: 12, maxSteps: 4, access: 'positional', maxSubtaskChars: 5 },
  { workers: 1, maxSteps: 1, access: 'positional', maxSubtaskChars: 3 },
];

describe.each(FORMATS)('workflowTokenBound($workers workers, $maxSteps steps, $access)', (format) => {
  const bound = workflowTokenBound(format);

  it('every random walk of single characters reaches end-of-sequence within the bound, and parses', () => {
    const constraint = createWorkflowConstraint({ vocab: VOCAB, eosIds: [EOS], ...format, allowReasoning: false });
    const random = seededRandom(format.workers * 31 + format.maxSteps);
    for (let walk = 0; walk < 60; walk++) {
      let state = constraint.start();
      const ids: number[] = [];
      // Lean towards long texts: end-of-sequence and closing characters are taken only when nothing else is allowed, half the time.
      while (!constraint.isFinished(state)) {
        expect(ids.length).toBeLessThan(bound);
        const mask = constraint.mask(state);
        const allowed = VOCAB.map((_, id) => id).filter((id) => (mask[id >>> 5] >>> (id & 31)) & 1);
        const longer = allowed.filter((id) => id !== EOS && VOCAB[id] !== '"' && VOCAB[id] !== ']');
        const pool = longer.length > 0 && random() < 0.9 ? longer : allowed;
        const id = pool[Math.floor(random() * pool.length)];
        ids.push(id);
        state = constraint.advance(state, id);
      }
      expect(ids.length).toBeLessThanOrEqual(bound);
      const text = ids
        .slice(0, -1)
        .map((id) => VOCAB[id])
        .join('');
      expect(parseWorkflow(text, format).ok, text).toBe(true);
    }
  });

  it('holds the longest workflow written out by hand, with little to spare', () => {
    const steps = format.maxSteps;
    const subtask = `"${'x'.repeat(format.maxSubtaskChars)}"`;
    const entry = (i: number) => (format.access === 'positional' && i > 2 ? `[${Array.from({ length: i }, (_, j) => j).join(', ')}]` : '["all"]');
    const text = [
      `model_id = [${Array(steps)
        .fill(format.workers - 1)
        .join(', ')}]`,
      `subtasks = [${Array(steps).fill(subtask).join(', ')}]`,
      `access_list = [${Array.from({ length: steps }, (_, i) => entry(i)).join(', ')}]`,
    ].join('\n');
    expect(parseWorkflow(text, format).ok, text).toBe(true);
    expect(text.length + 1).toBeLessThanOrEqual(bound);
    // The bound counts a ', ' after every list's last item, and the longest access entry for each.
    expect(bound - (text.length + 1)).toBeLessThanOrEqual(6 + steps * 4);
  });
});

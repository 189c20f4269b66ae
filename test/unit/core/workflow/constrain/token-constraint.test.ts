import { describe, expect, it } from 'vitest';
import { BatonError } from '../../../../../src/core/errors/index.ts';
import {
  createTokenConstraint,
  createWorkflowConstraint,
  type CharAutomaton,
  type WorkflowConstraint,
} from '../../../../../src/core/workflow/constrain/index.ts';
import { seededRandom } from '../../../../../src/core/random.ts';
import { allowedIds, qwenVocab, sampleAnswer, smallVocab, textOf, type TestVocab } from './tokenizers.ts';

/** (ab)+ : state = code units read so far, mod 2, and whether any were read. */
const abab: CharAutomaton<number> = {
  start: () => 0,
  step: (s, code) => (code === (s % 2 === 0 ? 0x61 : 0x62) ? (s === 0 ? 1 : s % 2 === 0 ? 3 : 2) : undefined),
  accepts: (s) => s === 2,
  key: (s) => String(s),
};

const TOY = ['a', 'b', 'ab', 'ba', 'abab', '', 'x', '<eos>'];
const EOS = 7;

function thrown(f: () => unknown): unknown {
  try {
    f();
  } catch (e) {
    return e;
  }
  return undefined;
}

describe('createTokenConstraint', () => {
  it('allows the tokens whose whole text fits, and end-of-sequence only where the text may end', () => {
    const c = createTokenConstraint(abab, { vocab: TOY, eosIds: [EOS] });
    let s = c.start();
    expect(allowedIds(c.mask(s), TOY.length)).toEqual([0, 2, 4]);
    s = c.advance(s, 0);
    expect(allowedIds(c.mask(s), TOY.length)).toEqual([1, 3]);
    s = c.advance(s, 3); // "ba": now after "aba"
    expect(allowedIds(c.mask(s), TOY.length)).toEqual([1, 3]);
    s = c.advance(s, 1);
    expect(c.isAccepting(s)).toBe(true);
    expect(allowedIds(c.mask(s), TOY.length)).toEqual([0, 2, 4, EOS]);
    s = c.advance(s, EOS);
    expect(c.isFinished(s)).toBe(true);
    expect(allowedIds(c.mask(s), TOY.length)).toEqual([]);
  });

  it('refuses a forbidden token, an empty one and bad end-of-sequence ids with BatonErrors', () => {
    const c = createTokenConstraint(abab, { vocab: TOY, eosIds: [EOS] });
    for (const id of [1, 5, 6, EOS])
      expect(
        BatonError.is(
          thrown(() => c.advance(c.start(), id)),
          'data/invalid',
        ),
        String(id),
      ).toBe(true);
    expect(
      BatonError.is(
        thrown(() => createTokenConstraint(abab, { vocab: TOY, eosIds: [] })),
        'data/invalid',
      ),
    ).toBe(true);
    expect(
      BatonError.is(
        thrown(() => createTokenConstraint(abab, { vocab: TOY, eosIds: [8] })),
        'data/invalid',
      ),
    ).toBe(true);
  });
});

/** Each state along sampled answers: the (maybe cached) mask must equal every token's own verdict. */
function checkMasksAlongWalks(c: WorkflowConstraint, v: TestVocab, walks: number, seed: number, everyNth: number): number {
  const rand = seededRandom(seed);
  let checked = 0;
  for (let walk = 0; walk < walks; walk++) {
    const ids = sampleAnswer(c, v, rand, 8);
    let state = c.start();
    for (let k = 0; k < ids.length; k++) {
      if (k % everyNth === 0) {
        const mask = c.mask(state);
        const expected: number[] = [];
        for (let id = 0; id < c.vocabSize; id++) if (c.isAllowed(state, id)) expected.push(id);
        expect(allowedIds(mask, c.vocabSize), `${walk}:${k} after ${JSON.stringify(textOf(v, ids.slice(0, k)))}`).toEqual(expected);
        checked++;
      }
      state = c.advance(state, ids[k]);
    }
  }
  return checked;
}

describe('workflow masks against token-by-token verdicts', () => {
  it('agree on a small vocabulary, near the subtask length limit too', async () => {
    const v = await smallVocab();
    const c = createWorkflowConstraint({ ...v, workers: 3, maxSteps: 4, access: 'positional', maxSubtaskChars: 24 });
    expect(checkMasksAlongWalks(c, v, 12, 3, 1)).toBeGreaterThan(200);
  });

  it('agree on the Qwen3 vocabulary', async () => {
    const v = await qwenVocab();
    const c = createWorkflowConstraint({ ...v, workers: 5, maxSteps: 3, maxSubtaskChars: 150 });
    expect(checkMasksAlongWalks(c, v, 1, 9, 8)).toBeGreaterThan(3);
  }, 60_000);
});

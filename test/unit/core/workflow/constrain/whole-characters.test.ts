import { describe, expect, it } from 'vitest';
import { parseWorkflow } from '../../../../../src/core/workflow/index.ts';
import { createWorkflowConstraint, workflowTokenBound } from '../../../../../src/core/workflow/constrain/index.ts';
import { textOfBytes } from '../../../../../src/core/workflow/constrain/whole-characters.ts';
import { seededRandom } from '../../../../../src/core/random.ts';
import { allowedIds, qwenVocab, textOf } from './tokenizers.ts';

/** The escape unit of byte `b` in a token text. */
const escaped = (b: number) => String.fromCharCode(0xdc00 + b);

describe('textOfBytes', () => {
  it('decodes whole characters and writes every other byte as its own escape unit', () => {
    expect(textOfBytes(new TextEncoder().encode(' naïve 数学 😀'))).toBe(' naïve 数学 😀');
    expect(textOfBytes(Uint8Array.of(0xef, 0xbb, 0xbf))).toBe('\ufeff'); // a character, not a byte order mark to drop
    expect(textOfBytes(Uint8Array.of(0x20, 0xe9, 0xbe))).toBe(` ${escaped(0xe9)}${escaped(0xbe)}`); // 龘's first two bytes
    expect(textOfBytes(Uint8Array.of(0x98, 0x61))).toBe(`${escaped(0x98)}a`); // its last byte, then a letter
    // Overlong forms, a surrogate's bytes and a byte UTF-8 never uses are no characters either.
    const invalid = [0xc0, 0xaf, 0xe0, 0x80, 0x80, 0xed, 0xa0, 0x80, 0xff];
    expect(textOfBytes(Uint8Array.from(invalid))).toBe(invalid.map(escaped).join(''));
  });
});

describe('whole characters on the Qwen3 vocabulary', async () => {
  const v = await qwenVocab();
  const leadC3 = v.vocab.indexOf(escaped(0xc3)); // the first byte of é (C3 A9), as a token of its own
  const contA9 = v.vocab.indexOf(escaped(0xa9));
  const wholeE = v.tokenizer.encode('é');
  // Pieces: tokens whose text holds an escaped byte (a lone low surrogate, not half of a pair).
  const isPiece = (id: number) => /(?<![\ud800-\udbff])[\udc80-\udcff]/.test(v.vocab[id]);
  const format = { workers: 2, maxSteps: 1, allowReasoning: false, maxSubtaskChars: 6 };

  function walk(text: string) {
    const c = createWorkflowConstraint({ ...v, ...format });
    let state = c.start();
    for (const id of v.tokenizer.encode(text)) state = c.advance(state, id);
    return { c, state };
  }

  it('finds the pieces the test needs', () => {
    expect(leadC3).toBeGreaterThanOrEqual(0);
    expect(contA9).toBeGreaterThanOrEqual(0);
    expect(wholeE).toHaveLength(1);
    expect(v.tokenizer.decode([leadC3, contA9])).toBe('é');
  });

  it('ends a subtask on the character before when its budget has no room for the rest of one', () => {
    // 'vel D' is 5 of the 6 code units: é fits whole, but its first byte alone would leave no room for its second.
    const { c, state } = walk('model_id = [0]\nsubtasks = ["vel D');
    const allowed = allowedIds(c.mask(state), c.vocabSize);
    expect(allowed).toContain(wholeE[0]);
    expect(allowed).toContain(v.tokenizer.encode('"')[0]);
    expect(c.isAllowed(state, leadC3)).toBe(false);
    expect(allowed.filter(isPiece)).toEqual([]);
  }, 60_000); // the first constraint on this vocabulary sorts its 151k tokens

  it('after the first byte of a character allows only bytes that continue it, then ends the subtask with it', () => {
    const { c, state: before } = walk('model_id = [0]\nsubtasks = ["vel ');
    expect(c.isAllowed(before, leadC3)).toBe(true); // two units left: its two bytes
    let state = c.advance(before, leadC3);
    const allowed = allowedIds(c.mask(state), c.vocabSize);
    expect(allowed).toContain(contA9);
    for (const id of allowed) expect(v.vocab[id].charCodeAt(0), JSON.stringify(v.vocab[id])).toBeGreaterThanOrEqual(0xdc80);
    for (const id of allowed) expect(v.vocab[id].charCodeAt(0), JSON.stringify(v.vocab[id])).toBeLessThanOrEqual(0xdcbf);
    expect(c.isAllowed(state, v.tokenizer.encode('"')[0])).toBe(false);
    for (const id of v.eosIds) expect(c.isAllowed(state, id)).toBe(false);
    state = c.advance(state, contA9);
    const ids = [...v.tokenizer.encode('model_id = [0]\nsubtasks = ["vel '), leadC3, contA9];
    for (const id of v.tokenizer.encode('"]\naccess_list = [[]]')) {
      state = c.advance(state, id);
      ids.push(id);
    }
    expect(c.isAccepting(state)).toBe(true);
    const parsed = parseWorkflow(textOf(v, ids), { workers: 2, maxSteps: 1 });
    expect(parsed.ok && parsed.workflow.steps[0].subtask).toBe('vel é');
  });

  it('samples answers that decode to whole characters, each subtask within its budget, when pieces are drawn as often as possible', () => {
    // Uniform draws would hardly ever take one of the ~1,450 pieces among 151k tokens: take one
    // whenever the mask allows any, nine draws in ten. Tokens whose text is a real U+FFFD are left out.
    const rand = seededRandom(41);
    let pieces = 0;
    for (let walk = 0; walk < 8; walk++) {
      const maxSubtaskChars = 4 + (walk % 4);
      const f = { workers: 3, maxSteps: 3, allowReasoning: false, maxSubtaskChars };
      const c = createWorkflowConstraint({ ...v, ...f });
      // Half the walks with room to spare, half with a token budget that steers the ending.
      const budget = walk % 2 ? workflowTokenBound(f) + 1 : 26 + walk;
      let state = c.start();
      const ids: number[] = [];
      while (!c.isFinished(state)) {
        expect(ids.length).toBeLessThan(budget);
        const allowed = allowedIds(c.mask(state, budget - ids.length), c.vocabSize).filter((id) => !v.vocab[id].includes('\ufffd'));
        const allowedPieces = allowed.filter(isPiece);
        const from = allowedPieces.length > 0 && rand() < 0.9 ? allowedPieces : allowed;
        const id = from[Math.floor(rand() * from.length)];
        if (isPiece(id)) pieces++;
        state = c.advance(state, id);
        ids.push(id);
      }
      const answer = ids.filter((id) => !v.eosIds.includes(id));
      const text = textOf(v, answer);
      expect(text, text).not.toContain('\ufffd');
      const parsed = parseWorkflow(text, { workers: 3, maxSteps: 3 });
      expect(parsed.ok, text).toBe(true);
      // The budget rule: code units as written, each byte of a character split across tokens counting one.
      const written = answer.map((id) => v.vocab[id]).join('');
      const subtasks = [...written.split('\n')[1].matchAll(/"((?:[^"\\]|\\.)*)"/g)].map((m) => m[1]);
      expect(subtasks.length, written).toBeGreaterThan(0);
      for (const subtask of subtasks) expect(subtask.length, text).toBeLessThanOrEqual(maxSubtaskChars);
    }
    expect(pieces).toBeGreaterThan(10);
  }, 120_000);
});

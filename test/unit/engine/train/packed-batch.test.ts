// packSequences on a micro-batch of two sequences sharing one prompt and a third with its own: each
// row's token, target and position, where each sequence's completion targets lie, and which rows each
// row attends (attention-visibility.ts's rule).
import { describe, expect, it } from 'vitest';
import { packSequences } from '../../../../src/engine/train/packed-batch.ts';

describe('packSequences', () => {
  const packed = packSequences([
    { ids: [3, 9, 14, 5, 7], completionStart: 3 },
    { ids: [20, 4, 8, 33], completionStart: 2 },
    { ids: [3, 9, 14, 30], completionStart: 3 },
  ]);

  it("writes a shared prompt's rows once, then each sequence's last prompt token and completion", () => {
    // Rows: 3 9 | 14 5 | 14 (prompt [3, 9, 14]); 20 | 4 8 (prompt [20, 4]).
    expect(packed.T).toBe(8);
    expect([...packed.ids]).toEqual([3, 9, 14, 5, 14, 20, 4, 8]);
    expect([...packed.targets]).toEqual([9, 14, 5, 7, 30, 4, 8, 33]);
    expect([...packed.positions]).toEqual([0, 1, 2, 3, 2, 0, 1, 2]);
    expect(packed.completionRows).toEqual([2, 6, 4]);
  });

  it('lets each row attend its prompt and its own segment, and each key be seen to the end of what sees it', () => {
    const rule = (t: number) => [...packed.visibility.subarray(4 * t, 4 * t + 4)];
    expect(rule(1)).toEqual([0, 0, 0, 5]); // a shared row: rows 0..1, seen by the whole block
    expect(rule(3)).toEqual([0, 2, 2, 4]); // the first sequence's completion: prompt 0..1, its segment from 2
    expect(rule(4)).toEqual([0, 2, 4, 5]); // the other sequence of that prompt: never rows 2..3
    expect(rule(5)).toEqual([5, 5, 5, 8]);
    expect(rule(7)).toEqual([5, 6, 6, 8]);
  });
});

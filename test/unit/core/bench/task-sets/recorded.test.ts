/** The zeroeval and routerbench task sets: the source's split where it has one, else a seeded share of every set. */
import { describe, expect, it } from 'vitest';
import { builtInTaskSet } from '../../../../../src/core/bench/index.ts';
import { recordedDataFiles } from '../../../../support/recorded-data.ts';

describe('recorded task sets', () => {
  it("follow RouterBench's own split", async () => {
    const { train, heldOut } = await builtInTaskSet('routerbench', recordedDataFiles(10), { seed: 3 });
    expect(heldOut.map((t) => t.itemId).sort()).toEqual(['choices/c0', 'choices/c5', 'sums/s0', 'sums/s5']);
    expect(train).toHaveLength(16);
    expect(heldOut[0]).toMatchObject({ dataset: expect.stringMatching(/^routerbench\//) });
  });

  it('hold out a fifth of every set by the seed where the source does not split, the same for the same seed', async () => {
    const files = recordedDataFiles(10);
    const a = await builtInTaskSet('zeroeval', files, { seed: 1 });
    const b = await builtInTaskSet('zeroeval', files, { seed: 2 });
    expect(a.heldOut.filter((t) => t.kind === 'number')).toHaveLength(2);
    expect(a.heldOut.filter((t) => t.kind === 'mcq')).toHaveLength(2);
    expect(new Set([...a.train, ...a.heldOut].map((t) => t.itemId)).size).toBe(20);
    expect((await builtInTaskSet('zeroeval', files, { seed: 1 })).heldOut).toEqual(a.heldOut);
    expect(b.heldOut.map((t) => t.itemId)).not.toEqual(a.heldOut.map((t) => t.itemId));
  });
});

/**
 * grpoStep's micro-batches: at most the size asked for, never across two groups (a trainer runs each
 * micro-batch's one prompt once), covering every sequence once and in order.
 */
import { describe, expect, it } from 'vitest';
import { flattenGrpoBatch, microBatches, type GrpoBatch } from '../../../../src/core/rl/index.ts';

/** Groups of the given sizes (as infrastructure failures leave them), each its own prompt. */
const batchOf = (sizes: number[]): GrpoBatch => ({
  groups: sizes.map((n, g) => ({ promptIds: [g + 1, 7], completions: Array.from({ length: n }, (_, i) => ({ ids: [i + 1], reward: i })) })),
});

describe('microBatches', () => {
  it('slices each group by the micro-batch size and never spans two groups', () => {
    const sequences = flattenGrpoBatch(batchOf([3, 8, 5, 1]));
    expect(microBatches(sequences, 4)).toEqual([
      [0, 3],
      [3, 7],
      [7, 11],
      [11, 15],
      [15, 16],
      [16, 17],
    ]);
    expect(microBatches(sequences, 100)).toEqual([
      [0, 3],
      [3, 11],
      [11, 16],
      [16, 17],
    ]);
    expect(microBatches(sequences, 1)).toHaveLength(17);
  });

  it('covers every sequence once, in order, with one prompt per slice, on random group sizes', () => {
    for (let trial = 0; trial < 50; trial++) {
      const sizes = Array.from({ length: 1 + (trial % 5) }, (_, g) => 1 + ((trial * 7 + g * 3) % 9));
      const micro = 1 + (trial % 6);
      const sequences = flattenGrpoBatch(batchOf(sizes));
      const slices = microBatches(sequences, micro);
      expect(slices.flatMap(([a, b]) => Array.from({ length: b - a }, (_, i) => a + i))).toEqual(sequences.map((_, i) => i));
      for (const [a, b] of slices) {
        expect(b - a).toBeLessThanOrEqual(micro);
        expect(new Set(sequences.slice(a, b).map((s) => s.completionStart && s.ids.slice(0, s.completionStart).join()))).toHaveProperty('size', 1);
      }
      // As few slices as the rule allows: each group's ceil(size / micro).
      expect(slices).toHaveLength(sizes.reduce((n, size) => n + Math.ceil(size / micro), 0));
    }
  });
});

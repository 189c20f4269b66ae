// How sumSquaresPartial splits a gradient buffer: one block per 256 values, capped so that a buffer of
// millions of values (a full weight) still leaves the finishing workgroup a short loop.
import { describe, expect, it } from 'vitest';
import { MAX_PARTIALS, sumSquaresGroups } from '../../../../src/engine/optim/index.ts';

describe('sumSquaresGroups', () => {
  it('gives one block per 256 values, at least one, at most MAX_PARTIALS', () => {
    expect(MAX_PARTIALS).toBe(1024);
    expect([0, 1, 256, 257, 300, 1024 * 256, 1024 * 256 + 1, 151936 * 896].map(sumSquaresGroups)).toEqual([1, 1, 1, 2, 2, 1024, 1024, 1024]);
  });
});

// embeddingBackwardRef against central differences of embeddingRef, repeated ids included.
import { describe, expect, it } from 'vitest';
import { embeddingBackwardRef, embeddingRef } from '../../../../src/engine/kernels/index.ts';
import { randomTensor } from '../../../support/check-tensor.ts';
import { checkGradient, weightedSum } from '../../../support/finite-difference.ts';

describe('embeddingBackwardRef', () => {
  const V = 7;
  const C = 5;
  const ids = [3, 0, 6, 3, 3, 1]; // id 3 three times; 2, 4 and 5 absent
  const table = randomTensor(V * C, 1);
  const dOut = randomTensor(ids.length * C, 2);

  it('is the gradient of sum(dOut * table[ids]) with respect to the table', () => {
    const loss = (t: Float64Array) => weightedSum(dOut, embeddingRef(t, ids, C));
    checkGradient('dTable', loss, table, embeddingBackwardRef(dOut, ids, V, C));
  });

  it('sums the rows of every token of a repeated id and leaves absent rows zero', () => {
    const dTable = embeddingBackwardRef(dOut, ids, V, C);
    expect(dTable[3 * C + 2]).toBeCloseTo(dOut[0 * C + 2] + dOut[3 * C + 2] + dOut[4 * C + 2], 6);
    expect(Array.from(dTable.subarray(4 * C, 6 * C))).toEqual(new Array(2 * C).fill(0));
  });
});

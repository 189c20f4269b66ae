// The int4 matmul's backward reference against central differences.
import { describe, it } from 'vitest';
import { matmulInt4BackwardInputRef, matmulInt4Ref } from '../../../../src/engine/quant/index.ts';
import { randomTensor } from '../../../support/check-tensor.ts';
import { checkGradient, weightedSum } from '../../../support/finite-difference.ts';

describe('int4 matmul backward reference', () => {
  it('through int4 weights, dx is the gradient of the int4 matmul with respect to x', () => {
    const T = 3;
    const outF = 4;
    const K = 64; // two groups of 32 per row
    const dy = randomTensor(T * outF, 9);
    const xq = randomTensor(T * K, 10);
    const wq = randomTensor(outF * K, 11);
    checkGradient(
      'dx (int4)',
      (xs) => weightedSum(dy, matmulInt4Ref(xs, wq, undefined, T, K, outF, 32)),
      xq,
      matmulInt4BackwardInputRef(dy, wq, T, K, outF, 32),
    );
  });
});

// matmul backward references (input, weight, bias) against central differences.
import { describe, it } from 'vitest';
import { matmulBackwardInputRef, matmulBackwardWeightRef, matmulRef } from '../../../../src/engine/kernels/index.ts';
import { randomTensor } from '../../../support/check-tensor.ts';
import { checkGradient, weightedSum } from '../../../support/finite-difference.ts';

describe('matmul backward references', () => {
  const T = 3;
  const inF = 5;
  const outF = 4;
  const x = randomTensor(T * inF, 6);
  const w = randomTensor(outF * inF, 7);
  const b = randomTensor(outF, 8);
  const dy = randomTensor(T * outF, 9);
  const { dw, dbias } = matmulBackwardWeightRef(dy, x, T, inF, outF);

  it('dx = dy W is the gradient of sum(dy * (x W^T + b)) with respect to x', () => {
    checkGradient('dx', (xs) => weightedSum(dy, matmulRef(xs, w, b, T, inF, outF)), x, matmulBackwardInputRef(dy, w, T, inF, outF));
  });

  it('dW = dy^T x is its gradient with respect to W', () => {
    checkGradient('dW', (ws) => weightedSum(dy, matmulRef(x, ws, b, T, inF, outF)), w, dw);
  });

  it('dbias = column sums of dy is its gradient with respect to b', () => {
    checkGradient('dbias', (bs) => weightedSum(dy, matmulRef(x, w, bs, T, inF, outF)), b, dbias);
  });
});

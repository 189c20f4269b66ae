import { describe, it } from 'vitest';
import { matmulInt4Forward } from '../../../src/engine/kernels/index.ts';
import { matmulRef } from '../../../src/engine/model/index.ts';
import { int4RoundTripRef, quantizeInt4 } from '../../../src/engine/quant/index.ts';
import { checkTensor, randomTensor } from '../../support/check-tensor.ts';
import { runKernel, useTestDevice } from '../../support/webgpu.ts';

// N above one 64-wide workgroup and not a multiple of it; M not a multiple of the row block; 3 groups per row.
const M = 5;
const N = 70;
const K = 96;

describe.each([{ rowsPerThread: 1 }, { rowsPerThread: 3 }, { rowsPerThread: 8 }])('matmulInt4Forward $rowsPerThread rows per thread', ({ rowsPerThread }) => {
  const device = useTestDevice();
  const x = randomTensor(M * K, 41);
  const w = randomTensor(N * K, 42);
  const b = randomTensor(N, 43);
  const q = quantizeInt4(w, N, K, 'f32');
  const dequantised = int4RoundTripRef(w, N, K, 32);

  it('computes x W^T + b over the dequantised weights', async () => {
    const { out } = await runKernel(
      device(),
      matmulInt4Forward,
      { dtype: 'f32', groupSize: 32, bias: true, accumulate: false, rowsPerThread },
      { x, w: q.packed, scales: q.scales as Float32Array, b, out: M * N },
      { M, N, K, ldo: N, col0: 0, alpha: 1 },
    );
    checkTensor('x Wq^T + b', out, matmulRef(x, dequantised, b, M, K, N));
  });

  it('adds alpha * x W^T + b into a column slice of a wider output', async () => {
    const ldo = N + 7;
    const col0 = 5;
    const before = randomTensor(M * ldo, 44);
    const wideBias = randomTensor(col0 + N, 45);
    const { out } = await runKernel(
      device(),
      matmulInt4Forward,
      { dtype: 'f32', groupSize: 32, bias: true, accumulate: true, rowsPerThread },
      { x, w: q.packed, scales: q.scales as Float32Array, b: wideBias, out: before },
      { M, N, K, ldo, col0, alpha: 0.5 },
    );
    const product = matmulRef(x, dequantised, undefined, M, K, N);
    const expected = Float64Array.from(before);
    for (let m = 0; m < M; m++) {
      for (let n = 0; n < N; n++) expected[m * ldo + col0 + n] += 0.5 * product[m * N + n] + wideBias[col0 + n];
    }
    checkTensor('out += 0.5 x Wq^T + b', out, expected);
  });
});

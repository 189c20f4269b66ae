import { describe, it } from 'vitest';
import { matmulInt4Forward, matmulInt4Ref } from '../../../src/engine/kernels/index.ts';
import { quantizeInt4 } from '../../../src/engine/quant/index.ts';
import { checkTensor, randomTensor } from '../../support/check-tensor.ts';
import { runKernel, useTestDevice } from '../../support/webgpu.ts';

// N above one 64-wide workgroup and not a multiple of it; M not a multiple of the row block; K / 32
// units not a multiple of the lanes.
const M = 5;
const N = 70;

describe.each([
  { rowsPerThread: 1, lanes: 1, groupSize: 32, K: 96 },
  { rowsPerThread: 3, lanes: 1, groupSize: 32, K: 96 },
  { rowsPerThread: 8, lanes: 1, groupSize: 64, K: 192 },
  { rowsPerThread: 1, lanes: 32, groupSize: 32, K: 1312 },
  { rowsPerThread: 3, lanes: 2, groupSize: 64, K: 192 },
  { rowsPerThread: 8, lanes: 64, groupSize: 32, K: 96 },
])('matmulInt4Forward $rowsPerThread rows per thread, $lanes lanes, groups of $groupSize', ({ rowsPerThread, lanes, groupSize, K }) => {
  const device = useTestDevice();
  const x = randomTensor(M * K, 41);
  const w = randomTensor(N * K, 42);
  const b = randomTensor(N, 43);
  const q = quantizeInt4(w, N, K, 'f32', groupSize);

  it('computes x W^T + b over the dequantised weights', async () => {
    const { out } = await runKernel(
      device(),
      matmulInt4Forward,
      { dtype: 'f32', groupSize, bias: true, accumulate: false, rowsPerThread, lanes },
      { x, w: q.packed, scales: q.scales as Float32Array, b, out: M * N },
      { M, N, K, ldo: N, col0: 0, alpha: 1 },
    );
    checkTensor('x Wq^T + b', out, matmulInt4Ref(x, w, b, M, K, N, groupSize));
  });

  it('adds alpha * x W^T + b into a column slice of a wider output', async () => {
    const ldo = N + 7;
    const col0 = 5;
    const before = randomTensor(M * ldo, 44);
    const wideBias = randomTensor(col0 + N, 45);
    const { out } = await runKernel(
      device(),
      matmulInt4Forward,
      { dtype: 'f32', groupSize, bias: true, accumulate: true, rowsPerThread, lanes },
      { x, w: q.packed, scales: q.scales as Float32Array, b: wideBias, out: before },
      { M, N, K, ldo, col0, alpha: 0.5 },
    );
    const product = matmulInt4Ref(x, w, undefined, M, K, N, groupSize);
    const expected = Float64Array.from(before);
    for (let m = 0; m < M; m++) {
      for (let n = 0; n < N; n++) expected[m * ldo + col0 + n] += 0.5 * product[m * N + n] + wideBias[col0 + n];
    }
    checkTensor('out += 0.5 x Wq^T + b', out, expected);
  });
});

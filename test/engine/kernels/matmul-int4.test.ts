import { describe, it } from 'vitest';
import { matmulInt4Forward } from '../../../src/engine/kernels/index.ts';
import { matmulRef } from '../../../src/engine/model/index.ts';
import { int4RoundTripRef, quantizeInt4 } from '../../../src/engine/quant/index.ts';
import { checkTensor, randomTensor, storedAs } from '../../support/check-tensor.ts';
import { runKernel, useTestDevice, weightDtypes } from '../../support/webgpu.ts';

// N above one 64-wide workgroup and not a multiple of it; M not a multiple of the row block; K / 32
// units not a multiple of the lanes.
const M = 5;
const N = 70;

const LAYOUTS = [
  { rowsPerThread: 1, lanes: 1, groupSize: 32, K: 96 },
  { rowsPerThread: 3, lanes: 1, groupSize: 32, K: 96 },
  { rowsPerThread: 8, lanes: 1, groupSize: 64, K: 192 },
  { rowsPerThread: 1, lanes: 32, groupSize: 32, K: 1312 },
  { rowsPerThread: 3, lanes: 2, groupSize: 64, K: 192 },
  { rowsPerThread: 8, lanes: 64, groupSize: 32, K: 96 },
];
// The scales and the bias are in the float dtype.
const CASES = (await weightDtypes()).flatMap(([title, dtype, skip]) => LAYOUTS.map((layout) => ({ ...layout, title, dtype, skip })));

describe.each(CASES)('matmulInt4Forward $rowsPerThread rows per thread, $lanes lanes, groups of $groupSize, $title scales', ({ rowsPerThread, lanes, groupSize, K, dtype, skip }) => {
  const device = useTestDevice();
  const x = randomTensor(M * K, 41);
  const w = randomTensor(N * K, 42);
  const b = storedAs(dtype, randomTensor(N, 43));
  const q = quantizeInt4(w, N, K, dtype, groupSize);
  const dequantised = int4RoundTripRef(w, N, K, groupSize, dtype);

  it.skipIf(skip)('computes x W^T + b over the dequantised weights', async () => {
    const { out } = await runKernel(
      device(),
      matmulInt4Forward,
      { dtype, groupSize, bias: true, accumulate: false, rowsPerThread, lanes },
      { x, w: q.packed, scales: q.scales, b: b.data, out: M * N },
      { M, N, K, ldo: N, col0: 0, alpha: 1 },
    );
    checkTensor('x Wq^T + b', out, matmulRef(x, dequantised, b.ref, M, K, N));
  });

  it.skipIf(skip)('adds alpha * x W^T + b into a column slice of a wider output', async () => {
    const ldo = N + 7;
    const col0 = 5;
    const before = randomTensor(M * ldo, 44);
    const wideBias = storedAs(dtype, randomTensor(col0 + N, 45));
    const { out } = await runKernel(
      device(),
      matmulInt4Forward,
      { dtype, groupSize, bias: true, accumulate: true, rowsPerThread, lanes },
      { x, w: q.packed, scales: q.scales, b: wideBias.data, out: before },
      { M, N, K, ldo, col0, alpha: 0.5 },
    );
    const product = matmulRef(x, dequantised, undefined, M, K, N);
    const expected = Float64Array.from(before);
    for (let m = 0; m < M; m++) {
      for (let n = 0; n < N; n++) expected[m * ldo + col0 + n] += 0.5 * product[m * N + n] + wideBias.ref[col0 + n];
    }
    checkTensor('out += 0.5 x Wq^T + b', out, expected);
  });
});

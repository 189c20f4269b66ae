/**
 * matmulNormedCpu (the LM head's layout for CPU adapters) against matmulNormedRef: f32 and int4 weights (group
 * sizes 32 and 64), one row and a block of rows not filling rowsPerThread, N not a multiple of a workgroup's
 * 256 columns, into a column slice of a wider output (a weight split in row chunks).
 */
import { describe, it } from 'vitest';
import { matmulNormedCpu, matmulNormedRef } from '../../../src/engine/kernels/index.ts';
import { int4RoundTripRef, quantizeInt4 } from '../../../src/engine/quant/index.ts';
import { checkTensor, randomTensor, storedAs } from '../../support/check-tensor.ts';
import { runKernel, useTestDevice, weightDtypes } from '../../support/webgpu.ts';

const N = 300;
const EPS = 1e-5;
const LAYOUTS = [
  { M: 1, rowsPerThread: 1, K: 64, groupSize: 0 },
  { M: 5, rowsPerThread: 3, K: 36, groupSize: 0 },
  { M: 1, rowsPerThread: 1, K: 96, groupSize: 32 },
  { M: 5, rowsPerThread: 8, K: 128, groupSize: 64 },
];
const CASES = (await weightDtypes()).flatMap(([title, dtype, skip]) => LAYOUTS.map((layout) => ({ ...layout, title, dtype, skip })));

describe.each(CASES)(
  'matmulNormedCpu, M $M, $rowsPerThread rows per thread, K $K, int4 groups $groupSize, $title',
  ({ M, rowsPerThread, K, groupSize, dtype, skip }) => {
    const device = useTestDevice();

    it.skipIf(skip)('rmsnorm(x) W^T into a column slice of a wider output', async () => {
      const x = randomTensor(M * K, 71).map((v, i) => v * (1 + Math.floor(i / K)));
      const g = storedAs(dtype, randomTensor(K, 72, 0.5, 1.5));
      const values = randomTensor(N * K, 73);
      const stored = storedAs(dtype, values);
      const q = groupSize ? quantizeInt4(values, N, K, dtype, groupSize) : undefined;
      const wRef = q ? int4RoundTripRef(values, N, K, groupSize, dtype) : stored.ref;
      const [ldo, col0] = [N + 7, 5];
      const { out } = await runKernel(
        device(),
        matmulNormedCpu,
        { dtype, normDtype: dtype, groupSize, rowsPerThread },
        { x, g: g.data, w: q?.packed ?? stored.data, scales: q?.scales ?? stored.data, out: M * ldo },
        { M, N, K, ldo, col0, eps: EPS },
      );
      const y = matmulNormedRef(x, g.ref, wRef, undefined, M, K, N, EPS);
      const expected = new Float64Array(M * ldo);
      for (let m = 0; m < M; m++) expected.set(y.subarray(m * N, (m + 1) * N), m * ldo + col0);
      checkTensor('rmsnorm(x) W^T', out, expected);
    });
  },
);

import { describe, it } from 'vitest';
import { matmulForward, matmulRef } from '../../../src/engine/kernels/index.ts';
import { checkTensor, randomTensor, storedAs } from '../../support/check-tensor.ts';
import { runKernel, useTestDevice, weightDtypes } from '../../support/webgpu.ts';

// N above one 64-wide workgroup and not a multiple of it; M not a multiple of the row block.
const M = 5;
const N = 70;

// With lanes > 1, K (or K / 4) is not a multiple of the lanes, so lanes end on different terms.
const LAYOUTS = [
  { rowsPerThread: 1, vec4: false, K: 37, lanes: 1 },
  { rowsPerThread: 3, vec4: false, K: 37, lanes: 1 },
  { rowsPerThread: 8, vec4: false, K: 37, lanes: 1 },
  { rowsPerThread: 1, vec4: true, K: 36, lanes: 1 },
  { rowsPerThread: 3, vec4: true, K: 36, lanes: 1 },
  { rowsPerThread: 1, vec4: true, K: 260, lanes: 32 },
  { rowsPerThread: 3, vec4: false, K: 37, lanes: 4 },
  { rowsPerThread: 8, vec4: true, K: 260, lanes: 64 },
];
const CASES = (await weightDtypes()).flatMap(([title, dtype, skip]) => LAYOUTS.map((layout) => ({ ...layout, title, dtype, skip })));

describe.each(CASES)(
  'matmulForward $rowsPerThread rows per thread, vec4 $vec4, $lanes lanes, $title weights',
  ({ rowsPerThread, vec4, K, lanes, dtype, skip }) => {
    const device = useTestDevice();
    const x = randomTensor(M * K, 11);
    const w = storedAs(dtype, randomTensor(N * K, 12));
    const b = storedAs(dtype, randomTensor(N, 13));

    it.skipIf(skip)('computes x W^T + b', async () => {
      const { out } = await runKernel(
        device(),
        matmulForward,
        { dtype, bias: true, accumulate: false, rowsPerThread, vec4, lanes },
        { x, w: w.data, b: b.data, out: M * N },
        { M, N, K, ldo: N, col0: 0, alpha: 1 },
      );
      checkTensor('x W^T + b', out, matmulRef(x, w.ref, b.ref, M, K, N));
    });

    it.skipIf(skip)('adds alpha * x W^T + b into a column slice of a wider output (LoRA delta, split weights)', async () => {
      const ldo = N + 7;
      const col0 = 5;
      const before = randomTensor(M * ldo, 14);
      const wideBias = storedAs(dtype, randomTensor(col0 + N, 15));
      const { out } = await runKernel(
        device(),
        matmulForward,
        { dtype, bias: true, accumulate: true, rowsPerThread, vec4, lanes },
        { x, w: w.data, b: wideBias.data, out: before },
        { M, N, K, ldo, col0, alpha: 0.5 },
      );
      const product = matmulRef(x, w.ref, undefined, M, K, N);
      const expected = Float64Array.from(before);
      for (let m = 0; m < M; m++) {
        for (let n = 0; n < N; n++) expected[m * ldo + col0 + n] += 0.5 * product[m * N + n] + wideBias.ref[col0 + n];
      }
      checkTensor('out += 0.5 x W^T + b', out, expected);
    });
  },
);

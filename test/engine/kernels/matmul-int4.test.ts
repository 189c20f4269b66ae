import { describe, it } from 'vitest';
import { matmulInt4BackwardInput, matmulInt4Forward } from '../../../src/engine/kernels/index.ts';
import { matmulInt4BackwardInputRef, matmulInt4Ref, quantizeInt4 } from '../../../src/engine/quant/index.ts';
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

describe.each(CASES)(
  'matmulInt4Forward $rowsPerThread rows per thread, $lanes lanes, groups of $groupSize, $title scales',
  ({ rowsPerThread, lanes, groupSize, K, dtype, skip }) => {
    const device = useTestDevice();
    const x = randomTensor(M * K, 41);
    const w = randomTensor(N * K, 42);
    const b = storedAs(dtype, randomTensor(N, 43));
    const q = quantizeInt4(w, N, K, dtype, groupSize);

    it.skipIf(skip)('computes x W^T + b over the dequantised weights', async () => {
      const { out } = await runKernel(
        device(),
        matmulInt4Forward,
        { dtype, groupSize, bias: true, accumulate: false, rowsPerThread, lanes },
        { x, w: q.packed, scales: q.scales, b: b.data, out: M * N },
        { M, N, K, ldo: N, col0: 0, alpha: 1 },
      );
      checkTensor('x Wq^T + b', out, matmulInt4Ref(x, w, b.ref, M, K, N, groupSize, dtype));
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
      const product = matmulInt4Ref(x, w, undefined, M, K, N, groupSize, dtype);
      const expected = Float64Array.from(before);
      for (let m = 0; m < M; m++) {
        for (let n = 0; n < N; n++) expected[m * ldo + col0 + n] += 0.5 * product[m * N + n] + wideBias.ref[col0 + n];
      }
      checkTensor('out += 0.5 x Wq^T + b', out, expected);
    });
  },
);

// dx (T, IN) = dy (T, OUT) Wq with Wq (OUT, IN) packed: IN above one 64-wide workgroup, T not a
// multiple of the row blocks, OUT not a multiple of the lanes; dy a wider gradient of which this
// weight chunk owns columns 4 .. 4 + OUT - 1.
describe.each([
  { rowsPerThread: 1, lanes: 1, groupSize: 32, IN: 96 },
  { rowsPerThread: 3, lanes: 1, groupSize: 64, IN: 192 },
  { rowsPerThread: 8, lanes: 4, groupSize: 32, IN: 96 },
])('matmulInt4BackwardInput $rowsPerThread rows per thread, $lanes lanes, groups of $groupSize', ({ rowsPerThread, lanes, groupSize, IN }) => {
  const device = useTestDevice();
  const T = 5;
  const OUT = 37;
  const ldy = OUT + 9;
  const dyCol0 = 4;
  const dyWide = randomTensor(T * ldy, 46);
  const dy = Float64Array.from({ length: T * OUT }, (_, i) => dyWide[Math.floor(i / OUT) * ldy + dyCol0 + (i % OUT)]);
  const w = randomTensor(OUT * IN, 47);
  const shape = { M: T, N: IN, K: OUT, ldo: IN, col0: 0, ldy, dyCol0 };

  it('computes dx = dy Wq from the packed weights', async () => {
    const q = quantizeInt4(w, OUT, IN, 'f32', groupSize);
    const { dx } = await runKernel(
      device(),
      matmulInt4BackwardInput,
      { dtype: 'f32', groupSize, accumulate: false, rowsPerThread, lanes },
      { dy: dyWide, w: q.packed, scales: q.scales as Float32Array, dx: T * IN },
      { ...shape, alpha: 1 },
    );
    checkTensor('dy Wq', dx, matmulInt4BackwardInputRef(dy, w, T, IN, OUT, groupSize));
  });

  it.for(['f32', 'f16'] as const)('adds alpha * dy Wq into dx (beside a LoRA path), %s scales', async (dtype, ctx) => {
    ctx.skip(dtype === 'f16' && !device().caps.shaderF16, 'this adapter has no shader-f16 (SwiftShader lacks it); runs on a GPU that has it');
    const q = quantizeInt4(w, OUT, IN, dtype, groupSize);
    const before = randomTensor(T * IN, 48);
    const { dx } = await runKernel(
      device(),
      matmulInt4BackwardInput,
      { dtype, groupSize, accumulate: true, rowsPerThread, lanes },
      { dy: dyWide, w: q.packed, scales: q.scales, dx: before },
      { ...shape, alpha: 0.5 },
    );
    const product = matmulInt4BackwardInputRef(dy, w, T, IN, OUT, groupSize, dtype);
    checkTensor(
      'dx += 0.5 dy Wq',
      dx,
      product.map((g, i) => before[i] + 0.5 * g),
    );
  });
});

import { describe, it } from 'vitest';
import { matmulBackwardBias, matmulBackwardInput, matmulBackwardInputRef, matmulBackwardWeight, matmulBackwardWeightRef } from '../../../src/engine/kernels/index.ts';
import { f16ToF32, f32ToF16 } from '../../../src/engine/model/index.ts';
import { checkTensor, randomTensor } from '../../support/check-tensor.ts';
import { runKernel, useTestDevice } from '../../support/webgpu.ts';

// Tokens T = 5 (not a multiple of the row blocks), in features 70 (above one 64-wide workgroup, not
// a multiple of it), out features 37 (not a multiple of the lanes or row blocks).
const T = 5;
const IN = 70;
const OUT = 37;
// dy as a wider gradient of which this weight chunk owns columns DY_COL0 .. DY_COL0 + OUT - 1.
const LDY = OUT + 9;
const DY_COL0 = 4;

/** Columns col0 .. col0 + cols - 1 of each row of a (rows, ld) matrix. */
function columns(a: ArrayLike<number>, rows: number, ld: number, col0: number, cols: number): Float64Array {
  return Float64Array.from({ length: rows * cols }, (_, i) => a[Math.floor(i / cols) * ld + col0 + (i % cols)]);
}

/** before (rows, ld) with alpha * product (rows, cols) added into columns col0 .. col0 + cols - 1. */
function addInto(before: ArrayLike<number>, product: ArrayLike<number>, rows: number, ld: number, col0: number, cols: number, alpha: number): Float64Array {
  const out = Float64Array.from(before);
  for (let i = 0; i < rows * cols; i++) out[Math.floor(i / cols) * ld + col0 + (i % cols)] += alpha * product[i];
  return out;
}

const layouts = [
  { rowsPerThread: 1, lanes: 1 },
  { rowsPerThread: 3, lanes: 1 },
  { rowsPerThread: 8, lanes: 1 },
  { rowsPerThread: 3, lanes: 4 },
  { rowsPerThread: 8, lanes: 64 },
];

describe.each(layouts)('matmulBackwardInput $rowsPerThread rows per thread, $lanes lanes', ({ rowsPerThread, lanes }) => {
  const device = useTestDevice();
  const dy = randomTensor(T * OUT, 71);
  const w = randomTensor(OUT * IN, 72);

  it('computes dx = dy W', async () => {
    const { dx } = await runKernel(
      device(),
      matmulBackwardInput,
      { dtype: 'f32', accumulate: false, rowsPerThread, lanes },
      { dy, w, dx: T * IN },
      { M: T, N: IN, K: OUT, ldo: IN, col0: 0, alpha: 1, ldy: OUT, dyCol0: 0 },
    );
    checkTensor('dy W', dx, matmulBackwardInputRef(dy, w, T, IN, OUT));
  });

  it("adds alpha * dy W from one weight chunk's columns of a wider dy into a wider dx", async () => {
    const dyWide = randomTensor(T * LDY, 73);
    const ldo = IN + 3;
    const col0 = 2;
    const before = randomTensor(T * ldo, 74);
    const { dx } = await runKernel(
      device(),
      matmulBackwardInput,
      { dtype: 'f32', accumulate: true, rowsPerThread, lanes },
      { dy: dyWide, w, dx: before },
      { M: T, N: IN, K: OUT, ldo, col0, alpha: 0.5, ldy: LDY, dyCol0: DY_COL0 },
    );
    const product = matmulBackwardInputRef(columns(dyWide, T, LDY, DY_COL0, OUT), w, T, IN, OUT);
    checkTensor('dx += 0.5 dy W', dx, addInto(before, product, T, ldo, col0, IN, 0.5));
  });
});

describe('matmulBackwardInput through f16 weights', () => {
  const device = useTestDevice();

  it('computes dx = dy W with W stored as f16', async (ctx) => {
    ctx.skip(!device().caps.shaderF16, 'this adapter has no shader-f16 (SwiftShader lacks it); runs on a GPU that has it');
    const dy = randomTensor(T * OUT, 75);
    const w = randomTensor(OUT * IN, 76);
    const w16 = Uint16Array.from(w, f32ToF16);
    const { dx } = await runKernel(
      device(),
      matmulBackwardInput,
      { dtype: 'f16', accumulate: false, rowsPerThread: 3, lanes: 1 },
      { dy, w: w16, dx: T * IN },
      { M: T, N: IN, K: OUT, ldo: IN, col0: 0, alpha: 1, ldy: OUT, dyCol0: 0 },
    );
    checkTensor('dy W16', dx, matmulBackwardInputRef(dy, Array.from(w16, f16ToF32), T, IN, OUT));
  });
});

// dw is (OUT, IN): OUT rows in row blocks, IN columns over workgroups, reduced over the T tokens.
describe.each(layouts)('matmulBackwardWeight $rowsPerThread rows per thread, $lanes lanes', ({ rowsPerThread, lanes }) => {
  const device = useTestDevice();
  const x = randomTensor(T * IN, 77);

  it('computes dW = dy^T x', async () => {
    const dy = randomTensor(T * OUT, 78);
    const { dw } = await runKernel(
      device(),
      matmulBackwardWeight,
      { accumulate: false, rowsPerThread, lanes },
      { dy, x, dw: OUT * IN },
      { M: OUT, N: IN, K: T, ldo: IN, col0: 0, alpha: 1, ldy: OUT, dyCol0: 0 },
    );
    checkTensor('dy^T x', dw, matmulBackwardWeightRef(dy, x, T, IN, OUT).dw);
  });

  it("adds alpha * dy^T x from one weight chunk's columns of a wider dy (gradient accumulation)", async () => {
    const dyWide = randomTensor(T * LDY, 79);
    const before = randomTensor(OUT * IN, 80);
    const { dw } = await runKernel(
      device(),
      matmulBackwardWeight,
      { accumulate: true, rowsPerThread, lanes },
      { dy: dyWide, x, dw: before },
      { M: OUT, N: IN, K: T, ldo: IN, col0: 0, alpha: 0.5, ldy: LDY, dyCol0: DY_COL0 },
    );
    const product = matmulBackwardWeightRef(columns(dyWide, T, LDY, DY_COL0, OUT), x, T, IN, OUT).dw;
    checkTensor('dw += 0.5 dy^T x', dw, addInto(before, product, OUT, IN, 0, IN, 0.5));
  });
});

describe('matmulBackwardBias', () => {
  const device = useTestDevice();
  const N = 70; // above one 64-wide workgroup
  const ldy = N + 9;
  const dyWide = randomTensor(T * ldy, 81);
  const dbias = matmulBackwardWeightRef(columns(dyWide, T, ldy, DY_COL0, N), randomTensor(T, 82), T, 1, N).dbias;

  it.each([false, true])('sums the columns of a chunk of dy over tokens (accumulate %s)', async (accumulate) => {
    const before = randomTensor(N, 83);
    const { db } = await runKernel(device(), matmulBackwardBias, { accumulate }, { dy: dyWide, db: before }, { T, N, ldy, dyCol0: DY_COL0 });
    checkTensor('db', db, accumulate ? dbias.map((g, i) => g + before[i]) : dbias);
  });
});

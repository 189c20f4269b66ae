import { describe, it } from 'vitest';
import {
  matmulBackwardBias,
  matmulBackwardInput,
  matmulBackwardInputRef,
  matmulBackwardWeight,
  matmulBackwardWeightRef,
  matmulForward,
  matmulRef,
} from '../../../src/engine/kernels/index.ts';
import { f16ToF32, f32ToF16 } from '../../../src/engine/model/index.ts';
import { checkTensor, F32_TOLERANCE, randomTensor } from '../../support/check-tensor.ts';
import { checkGradient, weightedSum } from '../../support/finite-difference.ts';
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

// The four dispatches of a LoRA layer's backward (matmul-backward.ts header) beside the frozen base,
// checked end to end against central differences of y = x W^T + s (x A^T) B^T in float64.
describe('LoRA backward composed from these kernels', () => {
  const device = useTestDevice();
  const r = 3;
  const s = 0.75; // lora_alpha / r
  const x = randomTensor(T * IN, 84);
  const w = randomTensor(OUT * IN, 85);
  const A = randomTensor(r * IN, 86);
  const B = randomTensor(OUT * r, 87);
  const dy = randomTensor(T * OUT, 88);
  const forward = (xs: ArrayLike<number>, As: ArrayLike<number>, Bs: ArrayLike<number>) => {
    const base = matmulRef(xs, w, undefined, T, IN, OUT);
    const delta = matmulRef(matmulRef(xs, As, undefined, T, IN, r), Bs, undefined, T, r, OUT);
    return base.map((v, i) => v + s * delta[i]);
  };

  it('gives dx, dA and dB of sum(dy * y)', async () => {
    const d = device();
    const [xb, wb, Ab, Bb, dyb] = await Promise.all([x, w, A, B, dy].map((a, i) => d.upload(a, `in${i}`)));
    const xa = d.createBuffer(T * r * 4, 'xa'); // (T, r)
    const dxa = d.createBuffer(T * r * 4, 'dxa'); // (T, r)
    const dx = d.createBuffer(T * IN * 4, 'dx'); // (T, IN)
    const dA = d.createBuffer(r * IN * 4, 'dA'); // (r, IN)
    const dB = d.createBuffer(OUT * r * 4, 'dB'); // (OUT, r)
    const layout = { rowsPerThread: 3, lanes: 1 };
    const plain = { ...layout, accumulate: false };
    await d
      .batch()
      .run(
        matmulForward,
        { ...plain, dtype: 'f32', bias: false, vec4: false },
        { x: xb, w: Ab, b: Ab, out: xa },
        { M: T, N: r, K: IN, ldo: r, col0: 0, alpha: 1 },
      )
      .run(matmulBackwardWeight, plain, { dy: dyb, x: xa, dw: dB }, { M: OUT, N: r, K: T, ldo: r, col0: 0, alpha: s, ldy: OUT, dyCol0: 0 })
      .run(matmulBackwardInput, { ...plain, dtype: 'f32' }, { dy: dyb, w: Bb, dx: dxa }, { M: T, N: r, K: OUT, ldo: r, col0: 0, alpha: s, ldy: OUT, dyCol0: 0 })
      .run(matmulBackwardWeight, plain, { dy: dxa, x: xb, dw: dA }, { M: r, N: IN, K: T, ldo: IN, col0: 0, alpha: 1, ldy: r, dyCol0: 0 })
      .run(matmulBackwardInput, { ...plain, dtype: 'f32' }, { dy: dyb, w: wb, dx }, { M: T, N: IN, K: OUT, ldo: IN, col0: 0, alpha: 1, ldy: OUT, dyCol0: 0 })
      .run(
        matmulBackwardInput,
        { ...layout, accumulate: true, dtype: 'f32' },
        { dy: dxa, w: Ab, dx },
        { M: T, N: IN, K: r, ldo: IN, col0: 0, alpha: 1, ldy: r, dyCol0: 0 },
      )
      .submit();
    const tolerance = F32_TOLERANCE;
    checkGradient('dx', (xs) => weightedSum(dy, forward(xs, A, B)), x, await d.readF32(dx), { tolerance });
    checkGradient('dA', (As) => weightedSum(dy, forward(x, As, B)), A, await d.readF32(dA), { tolerance });
    checkGradient('dB', (Bs) => weightedSum(dy, forward(x, A, Bs)), B, await d.readF32(dB), { tolerance });
  });
});

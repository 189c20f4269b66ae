import { describe, it } from 'vitest';
import { rmsnormBackward, rmsnormBackwardRef, rmsnormBackwardWeight, rmsnormForward, rmsnormRef, rmsnormThreads } from '../../../src/engine/kernels/index.ts';
import { f16ToF32, f32ToF16 } from '../../../src/engine/model/index.ts';
import { checkTensor, randomTensor, storedAs } from '../../support/check-tensor.ts';
import { runKernel, useTestDevice, weightDtypes } from '../../support/webgpu.ts';

describe.each(await weightDtypes())('rmsnormForward, %s weights', (_, dtype, skip) => {
  const device = useTestDevice();

  it.skipIf(skip)('normalises rows of the hidden size, with as many threads as rmsnormThreads gives and with fewer than C', async () => {
    const rows = 3;
    const C = 96;
    const x = randomTensor(rows * C, 1, -2, 2);
    const w = storedAs(dtype, randomTensor(C, 2, 0.5, 1.5));
    for (const threads of [rmsnormThreads(C), 32]) {
      const { out } = await runKernel(device(), rmsnormForward, { dtype, threads }, { x, w: w.data, out: rows * C }, { rows, C, eps: 1e-6 });
      checkTensor(`rmsnorm (${threads} threads)`, out, rmsnormRef(x, w.ref, rows, C, 1e-6));
    }
  });

  it.skipIf(skip)('normalises each head (Qwen3 q/k norm: rows = T * heads, C = headDim)', async () => {
    const T = 2;
    const H = 3;
    const D = 16;
    const x = randomTensor(T * H * D, 3, -3, 1);
    const w = storedAs(dtype, randomTensor(D, 4, -1, 1));
    const { out } = await runKernel(
      device(),
      rmsnormForward,
      { dtype, threads: rmsnormThreads(D) },
      { x, w: w.data, out: T * H * D },
      { rows: T * H, C: D, eps: 1e-5 },
    );
    checkTensor('qk-norm', out, rmsnormRef(x, w.ref, T * H, D, 1e-5));
  });
});

// C = 300: wider than rmsnormBackward's 256 threads and than rmsnormBackwardWeight's 64 columns, a multiple of neither.
describe.each([
  { what: 'rows of the hidden size (C wider than the workgroup)', rows: 3, C: 300, eps: 1e-6, threads: rmsnormThreads(300) },
  { what: 'per-head q/k norm (rows = T * heads, C = headDim)', rows: 2 * 3, C: 16, eps: 1e-5, threads: rmsnormThreads(16) },
  { what: 'rows striding over 8 threads', rows: 2, C: 20, eps: 1e-5, threads: 8 },
])('rmsnormBackward, $what', ({ rows, C, eps, threads }) => {
  const device = useTestDevice();
  const x = randomTensor(rows * C, 5, -2, 2);
  const w = randomTensor(C, 6, 0.5, 1.5);
  const dy = randomTensor(rows * C, 7);
  const ref = rmsnormBackwardRef(dy, x, w, rows, C, eps);

  it('gives dx, overwriting or adding into it, and 1 / rms per row', async () => {
    const before = randomTensor(rows * C, 8);
    for (const accumulate of [false, true]) {
      const { dx, rstd } = await runKernel(
        device(),
        rmsnormBackward,
        { dtype: 'f32', accumulate, threads },
        { dy, x, w, dx: before, rstd: rows },
        { rows, C, eps },
      );
      checkTensor(`dx (accumulate ${accumulate})`, dx, accumulate ? ref.dx.map((g, i) => g + before[i]) : ref.dx);
      const rms = Array.from({ length: rows }, (_, r) => 1 / Math.sqrt(x.slice(r * C, (r + 1) * C).reduce((s, v) => s + v * v, 0) / C + eps));
      checkTensor('rstd', rstd, rms);
    }
  });

  it('gives dw summed over rows from the saved 1 / rms, overwriting or adding into it', async () => {
    const { rstd } = await runKernel(
      device(),
      rmsnormBackward,
      { dtype: 'f32', accumulate: false, threads },
      { dy, x, w, dx: rows * C, rstd: rows },
      { rows, C, eps },
    );
    const before = randomTensor(C, 9);
    for (const accumulate of [false, true]) {
      const { dw } = await runKernel(device(), rmsnormBackwardWeight, { accumulate }, { dy, x, rstd, dw: before }, { rows, C });
      checkTensor(`dw (accumulate ${accumulate})`, dw, accumulate ? ref.dweight.map((g, i) => g + before[i]) : ref.dweight);
    }
  });
});

describe('rmsnormBackward with an f16 weight', () => {
  const device = useTestDevice();

  it('gives dx with w stored as f16', async (ctx) => {
    ctx.skip(!device().caps.shaderF16, 'this adapter has no shader-f16 (SwiftShader lacks it); runs on a GPU that has it');
    const rows = 3;
    const C = 300;
    const x = randomTensor(rows * C, 10, -2, 2);
    const w16 = Uint16Array.from(randomTensor(C, 11, 0.5, 1.5), f32ToF16);
    const dy = randomTensor(rows * C, 12);
    const { dx } = await runKernel(
      device(),
      rmsnormBackward,
      { dtype: 'f16', accumulate: false, threads: rmsnormThreads(C) },
      { dy, x, w: w16, dx: rows * C, rstd: rows },
      { rows, C, eps: 1e-6 },
    );
    checkTensor('dx (f16 w)', dx, rmsnormBackwardRef(dy, x, Array.from(w16, f16ToF32), rows, C, 1e-6).dx);
  });
});

import { describe, it } from 'vitest';
import { rmsnormForward } from '../../../src/engine/kernels/index.ts';
import { rmsnormRef } from '../../../src/engine/model/index.ts';
import { checkTensor, randomTensor, storedAs } from '../../support/check-tensor.ts';
import { runKernel, useTestDevice, weightDtypes } from '../../support/webgpu.ts';

describe.each(await weightDtypes())('rmsnormForward, %s weights', (_, dtype, skip) => {
  const device = useTestDevice();

  it.skipIf(skip)('normalises rows of the hidden size (C wider than the workgroup)', async () => {
    const rows = 3;
    const C = 96;
    const x = randomTensor(rows * C, 1, -2, 2);
    const w = storedAs(dtype, randomTensor(C, 2, 0.5, 1.5));
    const { out } = await runKernel(device(), rmsnormForward, { dtype }, { x, w: w.data, out: rows * C }, { rows, C, eps: 1e-6 });
    checkTensor('rmsnorm', out, rmsnormRef(x, w.ref, rows, C, 1e-6));
  });

  it.skipIf(skip)('normalises each head (Qwen3 q/k norm: rows = T * heads, C = headDim)', async () => {
    const T = 2;
    const H = 3;
    const D = 16;
    const x = randomTensor(T * H * D, 3, -3, 1);
    const w = storedAs(dtype, randomTensor(D, 4, -1, 1));
    const { out } = await runKernel(device(), rmsnormForward, { dtype }, { x, w: w.data, out: T * H * D }, { rows: T * H, C: D, eps: 1e-5 });
    checkTensor('qk-norm', out, rmsnormRef(x, w.ref, T * H, D, 1e-5));
  });
});

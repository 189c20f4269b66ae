import { describe, it } from 'vitest';
import { rmsnormForward, rmsnormRef } from '../../../src/engine/kernels/index.ts';
import { checkTensor, randomTensor } from '../../support/check-tensor.ts';
import { runKernel, useTestDevice } from '../../support/webgpu.ts';

describe('rmsnormForward', () => {
  const device = useTestDevice();

  it('normalises rows of the hidden size (C wider than the workgroup)', async () => {
    const rows = 3;
    const C = 96;
    const x = randomTensor(rows * C, 1, -2, 2);
    const w = randomTensor(C, 2, 0.5, 1.5);
    const { out } = await runKernel(device(), rmsnormForward, { dtype: 'f32' }, { x, w, out: rows * C }, { rows, C, eps: 1e-6 });
    checkTensor('rmsnorm', out, rmsnormRef(x, w, rows, C, 1e-6));
  });

  it('normalises each head (Qwen3 q/k norm: rows = T * heads, C = headDim)', async () => {
    const T = 2;
    const H = 3;
    const D = 16;
    const x = randomTensor(T * H * D, 3, -3, 1);
    const w = randomTensor(D, 4, -1, 1);
    const { out } = await runKernel(device(), rmsnormForward, { dtype: 'f32' }, { x, w, out: T * H * D }, { rows: T * H, C: D, eps: 1e-5 });
    checkTensor('qk-norm', out, rmsnormRef(x, w, T * H, D, 1e-5));
  });
});

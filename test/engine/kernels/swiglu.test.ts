import { describe, it } from 'vitest';
import { swigluForward, swigluRef } from '../../../src/engine/kernels/index.ts';
import { checkTensor, randomTensor } from '../../support/check-tensor.ts';
import { runKernel, useTestDevice } from '../../support/webgpu.ts';

describe('swigluForward', () => {
  const device = useTestDevice();

  it('computes silu(gate) * up over more than one workgroup', async () => {
    const n = 300;
    const gate = randomTensor(n, 31, -6, 6);
    const up = randomTensor(n, 32, -2, 2);
    const { out } = await runKernel(device(), swigluForward, {}, { gate, up, out: n }, { n });
    checkTensor('swiglu', out, swigluRef(gate, up));
  });
});

import { describe, it } from 'vitest';
import { swigluBackward, swigluBackwardRef, swigluForward, swigluRef } from '../../../src/engine/kernels/index.ts';
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

describe('swigluBackward', () => {
  const device = useTestDevice();

  it('gives dgate and dup over more than one workgroup', async () => {
    const n = 300;
    const gate = randomTensor(n, 33, -6, 6);
    const up = randomTensor(n, 34, -2, 2);
    const dy = randomTensor(n, 35);
    const { dgate, dup } = await runKernel(device(), swigluBackward, {}, { dy, gate, up, dgate: n, dup: n }, { n });
    const ref = swigluBackwardRef(dy, gate, up);
    checkTensor('dgate', dgate, ref.dgate);
    checkTensor('dup', dup, ref.dup);
  });
});

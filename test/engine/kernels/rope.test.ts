import { describe, it } from 'vitest';
import { ropeForward, ropeTable } from '../../../src/engine/kernels/index.ts';
import { ropeRef } from '../../../src/engine/model/index.ts';
import { checkTensor, randomTensor } from '../../support/check-tensor.ts';
import { runKernel, useTestDevice } from '../../support/webgpu.ts';

describe('ropeForward', () => {
  const device = useTestDevice();

  it('rotates halves of each head at positions continuing from startPos', async () => {
    const T = 3;
    const H = 2;
    const D = 16;
    const startPos = 1000; // large angles: the float64 table keeps them exact
    const invFreq = Array.from({ length: D / 2 }, (_, i) => 1 / Math.pow(10000, (2 * i) / D));
    const x = randomTensor(T * H * D, 41);
    const { x: out } = await runKernel(device(), ropeForward, {}, { x, cs: ropeTable(invFreq, startPos, T) }, { T, H, D });
    checkTensor('rope', out, ropeRef(x, T, H, D, invFreq, startPos));
  });
});

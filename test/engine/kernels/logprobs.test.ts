import { describe, it } from 'vitest';
import { logprobsForward, logSoftmaxRef } from '../../../src/engine/kernels/index.ts';
import { checkTensor, randomTensor } from '../../support/check-tensor.ts';
import { runKernel, useTestDevice } from '../../support/webgpu.ts';

describe('logprobsForward', () => {
  const device = useTestDevice();

  it.each([1, 0.7])('gives log p(target) per row at temperature %s, with large logits', async (temperature) => {
    const R = 3;
    const V = 1000;
    const logits = randomTensor(R * V, 61, -30, 30); // exp would overflow without max-subtraction
    const targets = [5, 999, 421];
    const { out } = await runKernel(
      device(),
      logprobsForward,
      {},
      { logits, targets: Uint32Array.from(targets), out: R },
      { R, V, invTemperature: 1 / temperature },
    );
    const all = logSoftmaxRef(logits.map((z) => z / temperature), R, V);
    checkTensor('logprobs', out, targets.map((t, r) => all[r * V + t]), { abs: 1e-4, rel: 1e-5 });
  });
});

import { describe, expect, it } from 'vitest';
import { entropyRef, logprobsBackward, logprobsBackwardRef, logprobsForward, logprobsThreads, logSoftmaxRef } from '../../../src/engine/kernels/index.ts';
import { checkTensor, randomTensor } from '../../support/check-tensor.ts';
import { runKernel, useTestDevice } from '../../support/webgpu.ts';

describe('logprobsForward', () => {
  const device = useTestDevice();

  it('gives a small vocabulary fewer threads, never under 32 logits a thread, and a real one 256', () => {
    expect([1000, 1536, 8192, 151936].map(logprobsThreads)).toEqual([32, 32, 256, 256]);
  });

  it.each([
    [1, 256],
    [0.7, 32],
  ])('gives log p(target) per row at temperature %s with %s threads, with large logits', async (temperature, threads) => {
    const R = 3;
    const V = 1000;
    const logits = randomTensor(R * V, 61, -30, 30); // exp would overflow without max-subtraction
    const targets = [5, 999, 421];
    const { out } = await runKernel(
      device(),
      logprobsForward,
      { threads },
      { logits, targets: Uint32Array.from(targets), out: R },
      { R, V, invTemperature: 1 / temperature },
    );
    const all = logSoftmaxRef(
      logits.map((z) => z / temperature),
      R,
      V,
    );
    checkTensor(
      'logprobs',
      out,
      targets.map((t, r) => all[r * V + t]),
      { abs: 1e-4, rel: 1e-5 },
    );
  });
});

// V = 1000: several strides of the 256 threads, ending mid-stride. Large logits test the max-subtraction;
// moderate ones give entropies far from 0 and gradients spread over the whole row.
describe.each([
  { what: 'large logits', spread: 30 },
  { what: 'moderate logits', spread: 2 },
])('logprobsBackward, $what', ({ spread }) => {
  const device = useTestDevice();
  const R = 3;
  const V = 1000;
  const logits = randomTensor(R * V, 62, -spread, spread);
  const targets = [5, 999, 421];
  const dLogp = randomTensor(R, 63, 0.5, 1.5);

  it.each([
    [1, 256],
    [0.7, 32],
  ])('writes dLogits over the logits and the entropy per row at temperature %s with %s threads', async (temperature, threads) => {
    const { logits: dLogits, entropy } = await runKernel(
      device(),
      logprobsBackward,
      { threads },
      { logits: logits.slice(), targets: Uint32Array.from(targets), dLogp, entropy: R },
      { R, V, invTemperature: 1 / temperature },
    );
    checkTensor('dLogits', dLogits, logprobsBackwardRef(logits, targets, dLogp, R, V, temperature));
    checkTensor('entropy', entropy, entropyRef(logits, R, V, temperature), { abs: 1e-4, rel: 1e-5 });
  });
});

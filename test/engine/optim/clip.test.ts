import { describe, expect, it } from 'vitest';
import type { EngineDevice } from '../../../src/engine/device/index.ts';
import { PARTIAL_FLOATS, sumSquaresFinish, sumSquaresGroups, sumSquaresPartial, sumSquaresRef } from '../../../src/engine/optim/index.ts';
import { checkTensor, randomTensor } from '../../support/check-tensor.ts';
import { useTestDevice } from '../../support/webgpu.ts';

/** Partial reductions of every buffer into one partials buffer, then the finish; returns both read back. */
async function sumSquaresOnGpu(device: EngineDevice, grads: Float32Array[], groupsOf = sumSquaresGroups) {
  const groups = grads.map((g) => groupsOf(g.length));
  const blocks = groups.reduce((a, b) => a + b, 0);
  const buffers = await Promise.all(grads.map((g, i) => device.upload(g, `grad${i}`)));
  const partials = device.createBuffer(blocks * PARTIAL_FLOATS * 4, 'partials');
  const total = device.createBuffer(PARTIAL_FLOATS * 4, 'total');
  const batch = device.batch('sum-squares');
  let base = 0;
  grads.forEach((g, i) => {
    batch.run(sumSquaresPartial, {}, { grad: buffers[i], partials }, { n: g.length, groups: groups[i], base });
    base += groups[i];
  });
  await batch.run(sumSquaresFinish, {}, { partials, total }, { blocks }).submit();
  const out = { partials: await device.readF32(partials), total: await device.readF32(total) };
  for (const b of [...buffers, partials, total]) device.free(b);
  return out;
}

describe('sumSquaresPartial + sumSquaresFinish', () => {
  const device = useTestDevice();

  it('reduces several gradient buffers of odd lengths into one sum of squares', async () => {
    const grads = [randomTensor(300, 1), randomTensor(77, 2, -3, 3), randomTensor(513, 3, -0.2, 0.2)];
    const { total } = await sumSquaresOnGpu(device(), grads);
    checkTensor('sum of squares', [total[0]], [sumSquaresRef(grads).sumSquares]);
    expect(total[1]).toBe(0);
  });

  it('keeps every value when a buffer has more values than threads (each thread strides)', async () => {
    // One block of 256 threads over 1000 values; two blocks over 700.
    const grads = [randomTensor(1000, 4), randomTensor(700, 5, 0.5, 2)];
    const { partials, total } = await sumSquaresOnGpu(device(), grads, (n) => (n === 1000 ? 1 : 2));
    checkTensor('block of buffer 0', [partials[0]], [sumSquaresRef([grads[0]]).sumSquares]);
    checkTensor('blocks of buffer 1', [partials[2] + partials[4]], [sumSquaresRef([grads[1]]).sumSquares]);
    checkTensor('sum of squares', [total[0]], [sumSquaresRef(grads).sumSquares]);
  });

  it('counts NaN and infinite values in their block and leaves them out of the sum', async () => {
    const grads = [randomTensor(300, 6), randomTensor(90, 7)];
    grads[0][3] = NaN;
    grads[0][299] = Infinity;
    grads[1][50] = -Infinity;
    const { partials, total } = await sumSquaresOnGpu(device(), grads);
    const ref = sumSquaresRef(grads);
    expect(ref.nonFinite).toBe(3);
    checkTensor('sum of finite squares', [total[0]], [ref.sumSquares]);
    expect(total[1]).toBe(3);
    // Buffer 0's blocks are 0 and 1 (256 values each), buffer 1's is 2.
    expect([partials[1], partials[3], partials[5]]).toEqual([1, 1, 1]);
  });
});

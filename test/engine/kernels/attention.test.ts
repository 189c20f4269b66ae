import { describe, it } from 'vitest';
import { attentionForward, attentionRef } from '../../../src/engine/kernels/index.ts';
import { checkTensor, randomTensor } from '../../support/check-tensor.ts';
import { runKernel, useTestDevice } from '../../support/webgpu.ts';

describe('attentionForward', () => {
  const device = useTestDevice();
  const H = 4;
  const KV = 2;
  const D = 16;

  // startPos 0: prefill of a whole prompt; startPos > 0 with T = 1: one decode step over the cache.
  // 70 cached keys span two blocks of 64, so the online-softmax rescaling is exercised.
  it.each([
    { T: 5, startPos: 0 },
    { T: 1, startPos: 69 },
    { T: 3, startPos: 67 },
  ])('T=$T startPos=$startPos', async ({ T, startPos }) => {
    const S = startPos + T;
    const q = randomTensor(T * H * D, 51, -2, 2);
    const k = randomTensor(S * KV * D, 52, -2, 2);
    const v = randomTensor(S * KV * D, 53);
    const { out } = await runKernel(
      device(),
      attentionForward,
      { headDim: D },
      { q, k, v, slots: Uint32Array.of(0), out: T * H * D },
      { T, Tq: T, slotStride: 0, Hq: H, Hkv: KV, startPos, scale: 1 / Math.sqrt(D) },
    );
    checkTensor('attention', out, attentionRef(q, k, v, { T, S, H, KV, D }));
  });

  it('covers a head wider than the workgroup (D = 128, Qwen3), two output dims per thread', async () => {
    const [T, startPos, Hq, Hkv, Dw] = [2, 3, 2, 1, 128];
    const S = startPos + T;
    const q = randomTensor(T * Hq * Dw, 54);
    const k = randomTensor(S * Hkv * Dw, 55);
    const v = randomTensor(S * Hkv * Dw, 56);
    const { out } = await runKernel(
      device(),
      attentionForward,
      { headDim: Dw },
      { q, k, v, slots: Uint32Array.of(0), out: T * Hq * Dw },
      { T, Tq: T, slotStride: 0, Hq, Hkv, startPos, scale: 1 / Math.sqrt(Dw) },
    );
    checkTensor('attention D=128', out, attentionRef(q, k, v, { T, S, H: Hq, KV: Hkv, D: Dw }));
  });

  it('attends each sequence of a batch to its own cache slot (group decoding)', async () => {
    // 3 sequences of 2 query rows each, at positions 68 and 69; slot 3 of the cache is unused.
    const [Tq, startPos, capacity] = [2, 68, 72];
    const slots = [2, 0, 1];
    const T = Tq * slots.length;
    const S = startPos + Tq;
    const slotStride = capacity * KV * D;
    const q = randomTensor(T * H * D, 57, -2, 2);
    const k = randomTensor(4 * slotStride, 58, -2, 2);
    const v = randomTensor(4 * slotStride, 59);
    const { out } = await runKernel(
      device(),
      attentionForward,
      { headDim: D },
      { q, k, v, slots: Uint32Array.from(slots), out: T * H * D },
      { T, Tq, slotStride, Hq: H, Hkv: KV, startPos, scale: 1 / Math.sqrt(D) },
    );
    const expected = new Float64Array(T * H * D);
    slots.forEach((slot, b) => {
      const rows = Tq * H * D;
      const cache = (x: Float32Array) => x.subarray(slot * slotStride, slot * slotStride + S * KV * D);
      expected.set(attentionRef(q.subarray(b * rows, (b + 1) * rows), cache(k), cache(v), { T: Tq, S, H, KV, D }), b * rows);
    });
    checkTensor('batched attention', out, expected);
  });
});

import { describe, it } from 'vitest';
import { ropeBackwardRef, ropeCacheBackward, ropeCacheForward, ropeTable, ropeRef } from '../../../src/engine/kernels/index.ts';
import { checkTensor, randomTensor } from '../../support/check-tensor.ts';
import { runKernel, useTestDevice } from '../../support/webgpu.ts';

describe('ropeCacheForward', () => {
  const device = useTestDevice();

  it("rotates q in place and writes rotated k and plain v into each sequence's cache slot, leaving other rows alone", async () => {
    // Two sequences of 2 tokens (a group step with Tq = 2) at positions 1000, 1001 (large angles:
    // the float64 table keeps them exact); sequence 0 goes to slot 2, sequence 1 to slot 0.
    const [H, KV, D, Tq, startPos, capacity] = [4, 2, 16, 2, 1000, 1003];
    const slots = [2, 0];
    const T = Tq * slots.length;
    const slotStride = capacity * KV * D;
    const invFreq = Array.from({ length: D / 2 }, (_, i) => 1 / Math.pow(10000, (2 * i) / D));
    const q = randomTensor(T * H * D, 41);
    const k = randomTensor(T * KV * D, 42);
    const v = randomTensor(T * KV * D, 43);
    const kc = randomTensor(3 * slotStride, 44);
    const vc = randomTensor(3 * slotStride, 45);
    const table = ropeTable(invFreq, startPos, Tq);
    const cs = new Float32Array(T * D);
    slots.forEach((_, b) => cs.set(table, b * table.length));
    const out = await runKernel(
      device(),
      ropeCacheForward,
      {},
      { q, k, v, cs, slots: Uint32Array.from(slots), kc, vc },
      { T, Tq, H, KV, D, startPos, slotStride },
    );

    const expectedQ = new Float64Array(T * H * D);
    const expectedK = Float64Array.from(kc);
    const expectedV = Float64Array.from(vc);
    const row = KV * D;
    slots.forEach((slot, b) => {
      expectedQ.set(ropeRef(q.subarray(b * Tq * H * D, (b + 1) * Tq * H * D), Tq, H, D, invFreq, startPos), b * Tq * H * D);
      const rotated = ropeRef(k.subarray(b * Tq * row, (b + 1) * Tq * row), Tq, KV, D, invFreq, startPos);
      const at = slot * slotStride + startPos * row;
      expectedK.set(rotated, at);
      expectedV.set(v.subarray(b * Tq * row, (b + 1) * Tq * row), at);
    });
    checkTensor('q rotated', out.q, expectedQ);
    checkTensor('key cache', out.kc, expectedK);
    checkTensor('value cache', out.vc, expectedV);
  });
});

describe('ropeCacheBackward', () => {
  const device = useTestDevice();

  it("un-rotates dq in place, and dk and dv out of each sequence's slot rows past its prefix", async () => {
    // Training's layout: a batch of 2 sequences of Tq = 3 tokens after a shared 5-token prefix, each in
    // its own slot of a plain (2, S, KV, D) buffer; sequence 0 in slot 1, sequence 1 in slot 0.
    const [H, KV, D, Tq, startPos] = [4, 2, 8, 3, 5];
    const slots = [1, 0];
    const T = Tq * slots.length;
    const row = KV * D;
    const slotStride = (startPos + Tq) * row;
    const invFreq = Array.from({ length: D / 2 }, (_, i) => 1 / Math.pow(10000, (2 * i) / D));
    const dq = randomTensor(T * H * D, 46);
    const dkc = randomTensor(slots.length * slotStride, 47);
    const dvc = randomTensor(slots.length * slotStride, 48);
    const table = ropeTable(invFreq, startPos, Tq);
    const cs = new Float32Array(T * D);
    slots.forEach((_, b) => cs.set(table, b * table.length));
    const out = await runKernel(
      device(),
      ropeCacheBackward,
      {},
      // dk and dv start as noise: every value must be written.
      { dq, dk: randomTensor(T * row, 49), dv: randomTensor(T * row, 50), cs, slots: Uint32Array.from(slots), dkc, dvc },
      { T, Tq, H, KV, D, startPos, slotStride },
    );

    const expectedQ = new Float64Array(T * H * D);
    const expectedK = new Float64Array(T * row);
    const expectedV = new Float64Array(T * row);
    slots.forEach((slot, b) => {
      const rows = (x: Float32Array) => x.subarray(slot * slotStride + startPos * row, slot * slotStride + (startPos + Tq) * row);
      expectedQ.set(ropeBackwardRef(dq.subarray(b * Tq * H * D, (b + 1) * Tq * H * D), Tq, H, D, invFreq, startPos), b * Tq * H * D);
      expectedK.set(ropeBackwardRef(rows(dkc), Tq, KV, D, invFreq, startPos), b * Tq * row);
      expectedV.set(rows(dvc), b * Tq * row);
    });
    checkTensor('dq', out.dq, expectedQ);
    checkTensor('dk', out.dk, expectedK);
    checkTensor('dv', out.dv, expectedV);
  });
});

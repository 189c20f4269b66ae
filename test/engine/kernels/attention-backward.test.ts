// attentionTrainingForward (out and log-sum-exp) against attentionForwardRef, and the two backward
// passes against attentionBackwardRef, in training's layout: B sequences of Tq query rows after a
// prefix of startPos cached keys, each sequence's keys in its own slot of a plain buffer with one
// spare row per slot (which must stay untouched). Sequences shorter than Tq are padded at the end,
// their padded rows given dout = 0, and must get the gradients of the unpadded sequence.
import { describe, it } from 'vitest';
import {
  attentionBackwardKeyValue,
  attentionBackwardQuery,
  attentionBackwardRef,
  attentionForwardRef,
  attentionTrainingForward,
} from '../../../src/engine/kernels/index.ts';
import { checkTensor, randomTensor } from '../../support/check-tensor.ts';
import { runKernel, useTestDevice } from '../../support/webgpu.ts';

interface Case {
  name: string;
  Tq: number;
  startPos: number;
  H: number;
  KV: number;
  D: number;
  slots: number[];
  lengths: number[]; // valid query rows of each sequence, <= Tq
}

const cases: Case[] = [
  { name: 'prefill, GQA H/KV = 2', Tq: 6, startPos: 0, H: 4, KV: 2, D: 8, slots: [0], lengths: [6] },
  { name: 'a prefix of 5 keys, one kv head', Tq: 4, startPos: 5, H: 2, KV: 1, D: 12, slots: [0], lengths: [4] },
  { name: '2 sequences of lengths 3 and 5 after a prefix', Tq: 5, startPos: 2, H: 4, KV: 2, D: 8, slots: [1, 0], lengths: [3, 5] },
  // More than 64 keys per query row and 64 query rows per key: the blocks loop in both passes.
  { name: 'blocks of 64 keys and rows', Tq: 33, startPos: 40, H: 2, KV: 1, D: 4, slots: [0], lengths: [33] },
  { name: 'D = 128, two dimensions per thread', Tq: 2, startPos: 3, H: 2, KV: 1, D: 128, slots: [0], lengths: [2] },
];

/** Inputs of a case with the float64 forward of each sequence (over all Tq rows, padding included). */
function setUp({ Tq, startPos, H, KV, D, slots }: Case, seed: number) {
  const S = startPos + Tq;
  const T = Tq * slots.length;
  const rowsQ = Tq * H * D;
  const slotStride = (S + 1) * KV * D;
  const q = randomTensor(T * H * D, seed, -2, 2);
  const k = randomTensor(slots.length * slotStride, seed + 1, -2, 2);
  const v = randomTensor(slots.length * slotStride, seed + 2);
  const keys = (x: Float32Array, slot: number, n: number) => x.subarray(slot * slotStride, slot * slotStride + n * KV * D);
  const out = new Float32Array(T * H * D);
  const lse = new Float32Array(T * H);
  slots.forEach((slot, b) => {
    const f = attentionForwardRef(q.subarray(b * rowsQ, (b + 1) * rowsQ), keys(k, slot, S), keys(v, slot, S), { T: Tq, S, H, KV, D });
    out.set(f.out, b * rowsQ);
    lse.set(f.lse, b * Tq * H);
  });
  const uniforms = { T, Tq, slotStride, Hq: H, Hkv: KV, startPos, scale: 1 / Math.sqrt(D) };
  return { S, T, rowsQ, slotStride, q, k, v, keys, out, lse, uniforms };
}

describe('attentionTrainingForward', () => {
  const device = useTestDevice();

  it.each(cases)('writes out and each row\'s log-sum-exp: $name', async (c) => {
    const { q, k, v, out, lse, uniforms } = setUp(c, 61);
    const gpu = await runKernel(
      device(),
      attentionTrainingForward,
      { headDim: c.D },
      { q, k, v, slots: Uint32Array.from(c.slots), out: out.length, lse: lse.length },
      uniforms,
    );
    checkTensor('out', gpu.out, out);
    checkTensor('lse', gpu.lse, lse);
  });
});

describe('attentionBackwardQuery, attentionBackwardKeyValue', () => {
  const device = useTestDevice();

  it.each(cases)('give dq, dk and dv of attentionBackwardRef: $name', async (c) => {
    const { Tq, startPos, H, KV, D, slots, lengths } = c;
    const { T, rowsQ, slotStride, q, k, v, keys, out, lse, uniforms } = setUp(c, 71);
    const dout = randomTensor(T * H * D, 74);
    lengths.forEach((n, b) => dout.fill(0, b * rowsQ + n * H * D, (b + 1) * rowsQ));

    const pass1 = await runKernel(
      device(),
      attentionBackwardQuery,
      { headDim: D },
      { q, k, v, slots: Uint32Array.from(slots), out, dout, lse, dq: T * H * D, delta: T * H },
      uniforms,
    );
    const noise = randomTensor(k.length, 75);
    const pass2 = await runKernel(
      device(),
      attentionBackwardKeyValue,
      { headDim: D },
      { q, k, v, slots: Uint32Array.from(slots), dout, lse, delta: pass1.delta, dk: noise, dv: noise },
      uniforms,
    );

    // Expected: each sequence's gradients over its own length; 0 for padding; the spare row keeps its noise.
    const dq = new Float64Array(T * H * D);
    const dk = Float64Array.from(noise);
    const dv = Float64Array.from(noise);
    slots.forEach((slot, b) => {
      const n = lengths[b];
      const S = startPos + n;
      const g = attentionBackwardRef(dout.subarray(b * rowsQ, b * rowsQ + n * H * D), q.subarray(b * rowsQ, b * rowsQ + n * H * D), keys(k, slot, S), keys(v, slot, S), {
        T: n,
        S,
        H,
        KV,
        D,
      });
      dq.set(g.dq, b * rowsQ);
      const at = slot * slotStride;
      dk.fill(0, at, at + (startPos + Tq) * KV * D).set(g.dk, at);
      dv.fill(0, at, at + (startPos + Tq) * KV * D).set(g.dv, at);
    });
    checkTensor('dq', pass1.dq, dq);
    checkTensor('dk', pass2.dk, dk);
    checkTensor('dv', pass2.dv, dv);
  });
});

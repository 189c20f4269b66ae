// attentionTrainingForward (out and log-sum-exp) against attentionForwardRef, and the two backward
// passes against attentionBackwardRef, in training's packed layout: blocks of rows, each a prompt's
// shared rows then its sequences' segments (attention-visibility.ts), with blocks that share a prompt
// among several segments and blocks of one causal sequence, on random inputs.
import { describe, it } from 'vitest';
import {
  attentionBackwardKeyValue,
  attentionBackwardQuery,
  attentionBackwardRef,
  attentionForwardRef,
  attentionTrainingForward,
  packedVisibility,
  type PackedBlock,
} from '../../../src/engine/kernels/index.ts';
import { checkTensor, randomTensor } from '../../support/check-tensor.ts';
import { runKernel, useTestDevice } from '../../support/webgpu.ts';

interface Case {
  name: string;
  H: number;
  KV: number;
  D: number;
  blocks: PackedBlock[];
}

const cases: Case[] = [
  { name: 'one causal sequence, GQA H/KV = 2', H: 4, KV: 2, D: 8, blocks: [{ shared: 5, segments: [1] }] },
  {
    name: 'a prompt shared by 3 segments, then a sequence of its own',
    H: 4,
    KV: 2,
    D: 8,
    blocks: [
      { shared: 4, segments: [2, 3, 1] },
      { shared: 3, segments: [2] },
    ],
  },
  { name: 'segments with no shared rows (one-token prompts)', H: 2, KV: 1, D: 12, blocks: [{ shared: 0, segments: [3, 2] }] },
  // More than 64 keys per query row and 64 query rows per key.
  { name: 'a 70-row prompt shared by two 40-row segments', H: 2, KV: 1, D: 4, blocks: [{ shared: 70, segments: [40, 40] }] },
  { name: 'D = 128', H: 2, KV: 1, D: 128, blocks: [{ shared: 3, segments: [2, 1] }] },
];

/** Inputs of a case with its float64 forward. */
function setUp({ H, KV, D, blocks }: Case, seed: number) {
  const visibility = packedVisibility(blocks);
  const T = visibility.length / 4;
  const shape = { T, S: T, H, KV, D, visibility };
  const q = randomTensor(T * H * D, seed, -2, 2);
  const k = randomTensor(T * KV * D, seed + 1, -2, 2);
  const v = randomTensor(T * KV * D, seed + 2);
  const { out, lse } = attentionForwardRef(q, k, v, shape);
  const uniforms = { T, Hq: H, Hkv: KV, scale: 1 / Math.sqrt(D) };
  return { T, shape, visibility, q, k, v, out: Float32Array.from(out), lse: Float32Array.from(lse), uniforms };
}

describe('attentionTrainingForward', () => {
  const device = useTestDevice();

  it.each(cases)("writes out and each row's log-sum-exp: $name", async (c) => {
    const { q, k, v, visibility, out, lse, uniforms } = setUp(c, 61);
    const gpu = await runKernel(device(), attentionTrainingForward, { headDim: c.D }, { q, k, v, visibility, out: out.length, lse: lse.length }, uniforms);
    checkTensor('out', gpu.out, out);
    checkTensor('lse', gpu.lse, lse);
  });
});

describe('attentionBackwardQuery, attentionBackwardKeyValue', () => {
  const device = useTestDevice();

  it.each(cases)('give dq, dk and dv of attentionBackwardRef: $name', async (c) => {
    const { H, KV, D } = c;
    const { T, shape, visibility, q, k, v, out, lse, uniforms } = setUp(c, 71);
    const dout = randomTensor(T * H * D, 74);
    const pass1 = await runKernel(
      device(),
      attentionBackwardQuery,
      { headDim: D },
      { q, k, v, visibility, out, dout, lse, dq: T * H * D, delta: T * H },
      uniforms,
    );
    const pass2 = await runKernel(
      device(),
      attentionBackwardKeyValue,
      { headDim: D },
      { q, k, v, visibility, dout, lse, delta: pass1.delta, dk: T * KV * D, dv: T * KV * D },
      uniforms,
    );
    const g = attentionBackwardRef(dout, q, k, v, shape);
    checkTensor('dq', pass1.dq, g.dq);
    checkTensor('dk', pass2.dk, g.dk);
    checkTensor('dv', pass2.dv, g.dv);
  });
});

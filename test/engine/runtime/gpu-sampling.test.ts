/**
 * Decoding with the GPU sampler (kernels/sample-tokens.ts) against the CPU sampler on the same
 * model and seeds: generate and generateGroup give the same tokens, logprobs and stops, greedy, at a
 * temperature, with top-k, top-p and both, with per-step token masks, and the GPU path reads back
 * tokens, not logits.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BatonError } from '../../../src/core/errors/index.ts';
import { filesFromDir } from '../../../src/engine/model/files-node.ts';
import { openModel } from '../../../src/engine/model/index.ts';
import { GpuModel, type Generation } from '../../../src/engine/runtime/index.ts';
import { writeTinyModel } from '../../support/tiny-model.ts';
import { useTestDevice } from '../../support/webgpu.ts';

const PROMPT = [17, 3, 250, 99, 42];
const VOCAB = 256;

/** A mask of the ids congruent to the step's parity mod 2 (and to 3 mod 4 after three tokens): a constraint that changes per step. */
function stepMask(tokens: readonly number[]): Uint32Array {
  const mask = new Uint32Array(VOCAB / 32);
  for (let id = 0; id < VOCAB; id++) {
    const ok = tokens.length < 3 ? id % 2 === tokens.length % 2 : id % 4 === 3;
    if (ok) mask[id >> 5] |= 1 << (id & 31);
  }
  return mask;
}

function expectSame(gpu: Generation[], cpu: Generation[]): void {
  expect(gpu.map((g) => g.tokens)).toEqual(cpu.map((g) => g.tokens));
  expect(gpu.map((g) => g.finishReason)).toEqual(cpu.map((g) => g.finishReason));
  gpu.forEach((g, i) => {
    expect(g.logprobs).toHaveLength(g.tokens.length);
    g.logprobs.forEach((lp, t) => expect(Math.abs(lp - cpu[i].logprobs[t])).toBeLessThan(1e-4));
  });
}

describe('GPU sampling', () => {
  const device = useTestDevice();
  let dir: string;
  let gpu: GpuModel;
  let cpu: GpuModel;

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'baton-gpu-sampling-'));
    await writeTinyModel(dir, { architecture: 'qwen2', dtype: 'F32', seed: 21, vocab: VOCAB, tokenizer: 'none' });
    const opened = await openModel(filesFromDir(dir));
    gpu = await GpuModel.load(device(), opened, { weights: 'f32', gpuSampling: true });
    cpu = await GpuModel.load(device(), opened, { weights: 'f32', gpuSampling: false });
  });
  afterAll(async () => {
    gpu?.destroy();
    cpu?.destroy();
    await rm(dir, { recursive: true, force: true });
  });

  it.each([
    { temperature: 0, masked: false },
    { temperature: 0, masked: true },
    { temperature: 1, masked: false },
    { temperature: 0.8, masked: true },
    { temperature: 1.5, topK: 20, masked: false },
    { temperature: 1.2, topP: 0.7, masked: false },
    { temperature: 1.3, topK: 40, topP: 0.8, masked: true },
  ])('generateGroup picks the CPU sampler tokens, temperature $temperature, top-k $topK, top-p $topP, masked $masked', async ({ masked, ...sampling }) => {
    const { temperature } = sampling;
    const options = {
      n: 5,
      maxNewTokens: 6,
      stopTokens: [7],
      sampling: { ...sampling, seed: 3 },
      ...(masked ? { allowedTokens: (_: number, tokens: readonly number[]) => stepMask(tokens) } : {}),
    };
    const [onGpu, onCpu] = [await gpu.generateGroup(PROMPT, options), await cpu.generateGroup(PROMPT, options)];
    expectSame(onGpu, onCpu);
    if (masked) for (const g of onGpu) g.tokens.forEach((t, i) => expect(i < 3 ? t % 2 === i % 2 : t % 4 === 3).toBe(true));
    if (temperature > 0) expect(new Set(onGpu.map((g) => g.tokens.join())).size).toBeGreaterThan(1);
  });

  it.each([{ temperature: 1.1 }, { temperature: 1.1, topK: 30, topP: 0.9 }])(
    'generate (one completion in the prompt cache) picks the CPU sampler tokens, and reads back 8 bytes a step, %o',
    async (sampling) => {
      const options = { maxNewTokens: 8, stopTokens: [], sampling: { ...sampling, seed: 9 } };
      const onCpu = await cpu.generate(PROMPT, options);
      const reads: number[] = [];
      const readF32 = device().readF32.bind(device());
      device().readF32 = (buffer, offset, count, into) => {
        reads.push(count ?? buffer.size / 4);
        return readF32(buffer, offset, count, into);
      };
      try {
        expectSame([await gpu.generate(PROMPT, options)], [onCpu]);
      } finally {
        device().readF32 = readF32;
      }
      expect(reads).toEqual(Array(8).fill(2));
    },
  );

  it('stops with the CPU path error when a mask allows nothing', async () => {
    const error = await gpu
      .generate(PROMPT, { maxNewTokens: 3, sampling: { temperature: 1 }, allowedTokens: () => new Uint32Array(VOCAB / 32) })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(BatonError);
    expect((error as BatonError).code).toBe('data/invalid');
  });
});

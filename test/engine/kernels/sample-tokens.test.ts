/**
 * sampleTokens against the CPU sampler it ports (runtime/sampling.ts createSampler, float64): with
 * the same uniform draws (the CPU sampler's seeded stream), the same token and logprob per row,
 * greedy and at a temperature, with and without a token mask.
 */
import { describe, expect, it } from 'vitest';
import { seededRandom } from '../../../src/core/random.ts';
import { NO_TOKEN, sampleTokens } from '../../../src/engine/kernels/index.ts';
import { createSampler } from '../../../src/engine/runtime/index.ts';
import { randomTensor } from '../../support/check-tensor.ts';
import { runKernel, useTestDevice } from '../../support/webgpu.ts';

// V not a multiple of the 256 threads, nor of 32 (the mask's words).
const V = 1001;
const R = 8;
const WORDS = Math.ceil(V / 32);

/** Logits spread enough that draws land all over the vocabulary, with a tie for the best value in row 1. */
function logitsRows(seed: number): Float32Array {
  const logits = randomTensor(R * V, seed, -3, 3);
  logits[V + 700] = 9;
  logits[V + 40] = 9;
  return logits;
}

/** Random masks (about half the ids), one allowing a single id, one allowing the tied pair's later id only. */
function masks(seed: number): Uint32Array {
  const random = seededRandom(seed);
  const m = Uint32Array.from({ length: R * WORDS }, () => (random() * 2 ** 32) >>> 0);
  m.fill(0, 2 * WORDS, 3 * WORDS);
  m[2 * WORDS + (977 >> 5)] = 1 << (977 & 31);
  m.fill(0, WORDS, 2 * WORDS);
  m[WORDS + (700 >> 5)] = 1 << (700 & 31);
  return m;
}

async function sampleOnGpu(device: Parameters<typeof runKernel>[0], logits: Float32Array, temperature: number, seeds: number[], mask?: Uint32Array, rowStride = V) {
  const draws = Float32Array.from(seeds, (s) => (temperature > 0 ? seededRandom(s)() : 0));
  const { out } = await runKernel(
    device,
    sampleTokens,
    { greedy: temperature === 0, masked: mask !== undefined },
    { logits, draws, mask: mask ?? new Uint32Array(1), out: 2 * R },
    { R, V, rowStride, invTemperature: temperature === 0 ? 1 : 1 / temperature },
  );
  const bits = new Uint32Array(out.buffer);
  const values = new Float32Array(out.buffer);
  return Array.from({ length: R }, (_, r) => ({ token: bits[2 * r], logprob: values[2 * r + 1] }));
}

describe('sampleTokens', () => {
  const device = useTestDevice();
  const seeds = Array.from({ length: R }, (_, r) => 1000 + 17 * r);

  it.each([
    { temperature: 0, masked: false },
    { temperature: 0, masked: true },
    { temperature: 0.7, masked: false },
    { temperature: 1.3, masked: true },
  ])('picks the CPU sampler token and logprob, temperature $temperature, masked $masked', async ({ temperature, masked }) => {
    const logits = logitsRows(5);
    const mask = masked ? masks(6) : undefined;
    const got = await sampleOnGpu(device(), logits, temperature, seeds, mask);
    got.forEach(({ token, logprob }, r) => {
      const row = logits.subarray(r * V, (r + 1) * V);
      const expected = createSampler({ temperature, seed: seeds[r] })(row, mask?.subarray(r * WORDS, (r + 1) * WORDS));
      expect({ r, token }).toEqual({ r, token: expected.token });
      expect(Math.abs(logprob - expected.logprob)).toBeLessThan(1e-4);
    });
    // The rows drew different tokens: the draws are per row, not one for all.
    if (temperature > 0) expect(new Set(got.map((g) => g.token)).size).toBeGreaterThan(R / 2);
  });

  it('samples every row from one logits row with a zero row stride (a group first token)', async () => {
    const logits = logitsRows(7);
    const got = await sampleOnGpu(device(), logits, 1, seeds, undefined, 0);
    got.forEach(({ token }, r) => expect(token).toBe(createSampler({ temperature: 1, seed: seeds[r] })(logits.subarray(0, V)).token));
  });

  it('reports that a mask allows nothing', async () => {
    const mask = masks(8);
    mask.fill(0, 4 * WORDS, 5 * WORDS);
    const got = await sampleOnGpu(device(), logitsRows(9), 0.9, seeds, mask);
    expect(got[4].token).toBe(NO_TOKEN);
    expect(got[3].token).not.toBe(NO_TOKEN);
  });
});

/**
 * sampleTokens against the CPU sampler it ports (runtime/sampling.ts createSampler, float64): with
 * the same uniform draws (the CPU sampler's seeded stream), the same token and logprob per row,
 * greedy and at a temperature, with top-k, top-p and both, with and without a token mask, on rows
 * with ties at every top-k and top-p boundary, with draws near 0 and near 1.
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

/** Logits rounded to quarters: dozens of ids share each value, so top-k's k-th logit and top-p's floor are ties. */
function tiedRows(seed: number): Float32Array {
  return logitsRows(seed).map((z) => Math.round(z * 4) / 4);
}

interface Sampling {
  temperature: number;
  topK?: number;
  topP?: number;
}

/** `seeds` give each row the first draw of its CPU sampler's stream; `draws` instead gives it as is. */
async function sampleOnGpu(
  device: Parameters<typeof runKernel>[0],
  logits: Float32Array,
  sampling: Sampling,
  seeds: number[],
  mask?: Uint32Array,
  rowStride = V,
  draws = Float32Array.from(seeds, (s) => (sampling.temperature > 0 ? seededRandom(s)() : 0)),
) {
  const { temperature, topK = 0, topP = 1 } = sampling;
  const { out } = await runKernel(
    device,
    sampleTokens,
    { greedy: temperature === 0, masked: mask !== undefined, topK: topK > 0, topP: sampling.topP !== undefined },
    { logits, draws, mask: mask ?? new Uint32Array(1), out: 2 * R },
    { R, V, rowStride, invTemperature: temperature === 0 ? 1 : 1 / temperature, topK, topP },
  );
  const bits = new Uint32Array(out.buffer);
  const values = new Float32Array(out.buffer);
  return Array.from({ length: R }, (_, r) => ({ token: bits[2 * r], logprob: values[2 * r + 1] }));
}

/** The first seeds whose first draw is below `below` or above 1 - `below`: draws at both ends of the kept ids. */
function seedsAtTheEnds(below: number): number[] {
  const [low, high]: number[][] = [[], []];
  for (let s = 0; low.length < 2 || high.length < 2; s++) {
    const u = seededRandom(s)();
    if (u < below && low.length < 2) low.push(s);
    if (u > 1 - below && high.length < 2) high.push(s);
  }
  return [...low, ...high];
}

describe('sampleTokens', () => {
  const device = useTestDevice();
  const seeds = [...seedsAtTheEnds(1e-3), ...Array.from({ length: R - 4 }, (_, r) => 1000 + 17 * r)];

  it.each([
    { temperature: 0, masked: false },
    { temperature: 0, masked: true },
    { temperature: 0.7, masked: false },
    { temperature: 1.3, masked: true },
    { temperature: 1, topK: 1, masked: false },
    { temperature: 0.8, topK: 37, masked: true },
    { temperature: 1.2, topK: 37, masked: false },
    { temperature: 1.2, topK: 2 * V, masked: true },
    { temperature: 1, topP: 0.05, masked: false },
    { temperature: 0.9, topP: 0.6, masked: true },
    { temperature: 1.4, topP: 0.6, masked: false },
    { temperature: 1, topP: 1, masked: true },
    { temperature: 1.1, topK: 50, topP: 0.5, masked: false },
    { temperature: 0.6, topK: 300, topP: 0.9, masked: true },
  ])('picks the CPU sampler token and logprob, $temperature, top-k $topK, top-p $topP, masked $masked', async ({ masked, ...sampling }) => {
    for (const rows of [logitsRows, tiedRows]) {
      const logits = rows(5);
      const mask = masked ? masks(6) : undefined;
      const got = await sampleOnGpu(device(), logits, sampling, seeds, mask);
      got.forEach(({ token, logprob }, r) => {
        const row = logits.subarray(r * V, (r + 1) * V);
        const expected = createSampler({ ...sampling, seed: seeds[r] })(row, mask?.subarray(r * WORDS, (r + 1) * WORDS));
        expect({ rows: rows.name, r, token }).toEqual({ rows: rows.name, r, token: expected.token });
        expect(Math.abs(logprob - expected.logprob)).toBeLessThan(1e-4);
      });
      // The rows drew different tokens: the draws are per row, not one for all.
      if (sampling.temperature > 0 && sampling.topK !== 1 && sampling.topP !== 0.05) expect(new Set(got.map((g) => g.token)).size).toBeGreaterThan(R / 2);
    }
  });

  it('keeps -0 and +0 together at a top-k floor of zero, as the CPU compares them', async () => {
    const logits = Float32Array.from({ length: R * V }, (_, i) => [0, -0, -1 - (i % 7)][i % 3]);
    const got = await sampleOnGpu(device(), logits, { temperature: 1, topK: 1 }, seeds);
    got.forEach(({ token }, r) => expect(token).toBe(createSampler({ temperature: 1, topK: 1, seed: seeds[r] })(logits.subarray(r * V, (r + 1) * V)).token));
    expect(got.some(({ token }, r) => Object.is(logits[r * V + token], -0))).toBe(true);
  });

  it('takes the last kept id when the draw lands past the kept mass (a u of 1, as rounding can make it)', async () => {
    const logits = logitsRows(10);
    const mask = masks(11);
    const got = await sampleOnGpu(device(), logits, { temperature: 1, topK: 37 }, seeds, mask, V, new Float32Array(R).fill(1));
    got.forEach(({ token }, r) => {
      const row = logits.subarray(r * V, (r + 1) * V);
      const allowed = Array.from(row.keys()).filter((id) => ((mask[r * WORDS + (id >> 5)] >>> (id & 31)) & 1) === 1);
      const floor = allowed.map((id) => row[id]).sort((a, b) => b - a)[Math.min(36, allowed.length - 1)];
      expect(token).toBe(Math.max(...allowed.filter((id) => row[id] >= floor)));
    });
  });

  it('samples every row from one logits row with a zero row stride (a group first token)', async () => {
    const logits = logitsRows(7);
    const got = await sampleOnGpu(device(), logits, { temperature: 1 }, seeds, undefined, 0);
    got.forEach(({ token }, r) => expect(token).toBe(createSampler({ temperature: 1, seed: seeds[r] })(logits.subarray(0, V)).token));
  });

  it('reports that a mask allows nothing', async () => {
    const mask = masks(8);
    mask.fill(0, 4 * WORDS, 5 * WORDS);
    const got = await sampleOnGpu(device(), logitsRows(9), { temperature: 0.9, topK: 5, topP: 0.5 }, seeds, mask);
    expect(got[4].token).toBe(NO_TOKEN);
    expect(got[3].token).not.toBe(NO_TOKEN);
  });
});

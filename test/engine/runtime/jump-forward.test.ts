/**
 * Jump-forward decoding (GroupGenerateOptions.forced): tokens a constraint leaves no choice in are
 * fed with the token before them in one pass, completions of a group advancing together by as many
 * positions as the shortest forced run allows. It must give exactly what one pass per token gives
 * under the same masks (tokens, logprobs, stops), on the CPU and the GPU sampler, in fewer passes.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { filesFromDir } from '../../../src/engine/model/files-node.ts';
import { openModel } from '../../../src/engine/model/index.ts';
import { GpuModel } from '../../../src/engine/runtime/index.ts';
import { writeTinyModel } from '../../support/tiny-model.ts';
import { useTestDevice } from '../../support/webgpu.ts';

const PROMPT = [17, 3, 250, 99, 42];
const VOCAB = 256;
const STOP = 5;

/**
 * A toy format: 10 11 12, a free odd id, then 20 21 .. (one to three of them, by that id), a free even
 * id, then the stop token. Forced runs differ in length between completions, so a group cannot always
 * jump as far as each completion could alone.
 */
function nextForced(tokens: readonly number[]): number | undefined {
  const k = tokens.length;
  if (k < 3) return 10 + k;
  if (k === 3) return undefined;
  const run = 1 + (tokens[3] % 3);
  if (k < 4 + run) return 20 + (k - 4);
  if (k === 4 + run) return undefined;
  return STOP;
}

function maskOf(ids: number[]): Uint32Array {
  const mask = new Uint32Array(VOCAB / 32);
  for (const id of ids) mask[id >>> 5] |= 1 << (id & 31);
  return mask;
}

const ODD = maskOf(Array.from({ length: 16 }, (_, i) => 33 + 2 * i));
const EVEN = maskOf(Array.from({ length: 16 }, (_, i) => 64 + 2 * i));

const allowedTokens = (_: number, tokens: readonly number[]) => {
  const forced = nextForced(tokens);
  if (forced !== undefined) return maskOf([forced]);
  return tokens.length === 3 ? ODD : EVEN;
};

const forced = (_: number, tokens: readonly number[]) => {
  const run: number[] = [];
  for (let next = nextForced(tokens); next !== undefined; next = nextForced([...tokens, ...run])) {
    run.push(next);
    if (next === STOP) break;
  }
  return run;
};

describe.each([
  ['the CPU sampler', false],
  ['the GPU sampler', true],
])('jump-forward decoding with %s', (_, gpuSampling) => {
  const device = useTestDevice();
  let dir: string;
  let model: GpuModel;

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'baton-jump-'));
    await writeTinyModel(dir, { architecture: 'qwen3', dtype: 'F32', seed: 7, vocab: VOCAB, tokenizer: 'none' });
    model = await GpuModel.load(device(), await openModel(filesFromDir(dir)), { weights: 'f32', gpuSampling });
  });
  afterAll(async () => {
    model?.destroy();
    await rm(dir, { recursive: true, force: true });
  });

  /** The generations, and how many passes (one read-back each) they took. */
  async function counted<T>(run: () => Promise<T>): Promise<{ out: T; passes: number }> {
    let passes = 0;
    const readF32 = device().readF32.bind(device());
    device().readF32 = (buffer, offset, count, into) => {
      passes++;
      return readF32(buffer, offset, count, into);
    };
    try {
      return { out: await run(), passes };
    } finally {
      device().readF32 = readF32;
    }
  }

  it.each([1, 6])('gives what one pass per token gives, in fewer passes (group of %i)', async (n) => {
    const options = { n, maxNewTokens: 12, stopTokens: [STOP], sampling: { temperature: 1.2, seed: 4 }, allowedTokens };
    const stepwise = await counted(() => model.generateGroup(PROMPT, options));
    const jumping = await counted(() => model.generateGroup(PROMPT, { ...options, forced }));

    expect(jumping.out.map((g) => g.tokens)).toEqual(stepwise.out.map((g) => g.tokens));
    expect(jumping.out.map((g) => g.finishReason)).toEqual(stepwise.out.map((g) => g.finishReason));
    jumping.out.forEach((g, i) => {
      expect(g.logprobs).toHaveLength(g.tokens.length);
      g.logprobs.forEach((lp, t) => expect(Math.abs(lp - stepwise.out[i].logprobs[t]), `completion ${i} token ${t}`).toBeLessThan(1e-4));
    });
    for (const g of jumping.out) {
      expect(g.tokens.slice(0, 3)).toEqual([10, 11, 12]);
      expect(g.tokens[g.tokens.length - 1]).toBe(STOP);
      expect(g.finishReason).toBe('stop');
    }
    // Runs of different lengths in one group: the case where completions cannot all jump as far.
    if (n > 1) expect(new Set(jumping.out.map((g) => g.tokens.length)).size).toBeGreaterThan(1);
    // One pass per token: the longest completion's length. Jumping alone: the prompt, then the pass
    // ending at each free token (the odd id, the even id) and the one ending at the stop token.
    expect(stepwise.passes).toBe(Math.max(...stepwise.out.map((g) => g.tokens.length)));
    if (n === 1) expect(jumping.passes).toBe(4);
    else expect(jumping.passes).toBeLessThan(stepwise.passes);
  });

  it('stops a forced run at the token budget, as one pass per token would', async () => {
    const options = { n: 3, maxNewTokens: 5, stopTokens: [STOP], sampling: { temperature: 1, seed: 9 }, allowedTokens };
    const stepwise = await model.generateGroup(PROMPT, options);
    const jumping = await model.generateGroup(PROMPT, { ...options, forced });
    expect(jumping.map((g) => g.tokens)).toEqual(stepwise.map((g) => g.tokens));
    for (const g of jumping) {
      expect(g.tokens).toHaveLength(5);
      expect(g.finishReason).toBe('length');
    }
  });
});

/**
 * Batched group sampling (GpuModel.generateGroup) against separate `generate` runs with the seeds
 * each completion is given: the same tokens, the same logprobs, the same stops, while completions
 * that finish early leave the batch.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BatonError } from '../../../src/core/errors/index.ts';
import { filesFromDir } from '../../../src/engine/model/files-node.ts';
import { openModel } from '../../../src/engine/model/index.ts';
import { GpuModel, streamSeed, type Generation } from '../../../src/engine/runtime/index.ts';
import { writeTinyModel } from '../../support/tiny-model.ts';
import { useTestDevice } from '../../support/webgpu.ts';

const PROMPT = [17, 3, 250, 99, 42, 7, 128];
const G = 4;
const MAX_NEW = 6;
const SAMPLING = { temperature: 1.3, topK: 40, seed: 11 };

describe('GpuModel.generateGroup', () => {
  const device = useTestDevice();
  let dir: string;
  let model: GpuModel;

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'baton-group-'));
    await writeTinyModel(dir, { architecture: 'qwen3', dtype: 'F32', seed: 5, vocab: 256, tokenizer: 'none' });
    model = await GpuModel.load(device(), await openModel(filesFromDir(dir)), { weights: 'f32' });
  });
  afterAll(async () => {
    model?.destroy();
    await rm(dir, { recursive: true, force: true });
  });

  const separately = (stopTokens: number[]) =>
    Promise.all(
      Array.from({ length: G }, (_, i) =>
        model.generate(PROMPT, { maxNewTokens: MAX_NEW, stopTokens, sampling: { ...SAMPLING, seed: streamSeed(SAMPLING.seed, i) } }),
      ),
    );

  function expectSame(group: Generation[], single: Generation[]): void {
    expect(group.map((g) => g.tokens)).toEqual(single.map((g) => g.tokens));
    expect(group.map((g) => g.finishReason)).toEqual(single.map((g) => g.finishReason));
    // One logprob per token, in both: the comparison below would pass on empty arrays.
    expect(group.map((g) => g.logprobs.length)).toEqual(group.map((g) => g.tokens.length));
    expect(single.map((g) => g.logprobs.length)).toEqual(single.map((g) => g.tokens.length));
    group.forEach((g, i) => g.logprobs.forEach((lp, t) => expect(Math.abs(lp - single[i].logprobs[t])).toBeLessThan(1e-4)));
  }

  it('equals G separate runs with the same seeds, completions stopping at different steps', async () => {
    const free = await separately([]);
    // A stop token that one completion samples mid-way makes it leave the batch early.
    expect(free[0].tokens).toHaveLength(MAX_NEW);
    const stopToken = free[0].tokens[2];
    const single = await separately([stopToken]);
    const group = await model.generateGroup(PROMPT, { n: G, maxNewTokens: MAX_NEW, stopTokens: [stopToken], sampling: SAMPLING });
    expect(group).toHaveLength(G);
    expectSame(group, single);
    expect(group[0].finishReason).toBe('stop');
    expect(group[0].tokens).toHaveLength(free[0].tokens.indexOf(stopToken) + 1);
    expect(group.some((g) => g.finishReason === 'length')).toBe(true);
    expect(new Set(group.map((g) => g.tokens.join())).size).toBeGreaterThan(1);
    expect(group.every((g) => g.logprobs.every((lp) => lp < 0))).toBe(true);
  });

  it('stops a completion when stopWhen says so, and reports every token as it comes', async () => {
    const seen: [number, number][] = [];
    const group = await model.generateGroup(PROMPT, {
      n: G,
      maxNewTokens: MAX_NEW,
      stopTokens: [],
      sampling: SAMPLING,
      stopWhen: (index, tokens) => index === 1 && tokens.length === 2,
      onToken: (index, token) => seen.push([index, token]),
    });
    const free = await separately([]);
    expect(group[1]).toEqual({ ...free[1], tokens: free[1].tokens.slice(0, 2), logprobs: group[1].logprobs, finishReason: 'stop' });
    expect(group[1].logprobs).toHaveLength(2);
    for (const i of [0, 2, 3]) expect(group[i].tokens).toEqual(free[i].tokens);
    for (let i = 0; i < G; i++) expect(seen.filter(([index]) => index === i).map(([, t]) => t)).toEqual(group[i].tokens);
  });

  it('decodes greedily the same chain in every completion', async () => {
    const [single] = await Promise.all([model.generate(PROMPT, { maxNewTokens: 4, stopTokens: [] })]);
    const group = await model.generateGroup(PROMPT, { n: 3, maxNewTokens: 4, stopTokens: [] });
    expect(single.tokens).toHaveLength(4);
    expect(group).toHaveLength(3);
    for (const g of group) expect(g.tokens).toEqual(single.tokens);
  });

  it('keeps generate and generateGroup to allowedTokens, with the logprobs of the unmasked model', async () => {
    const oddIds = new Uint32Array(256 / 32).fill(0xaaaaaaaa);
    const single = await model.generate(PROMPT, { maxNewTokens: 4, stopTokens: [], sampling: SAMPLING, allowedTokens: () => oddIds });
    const group = await model.generateGroup(PROMPT, { n: 2, maxNewTokens: 4, stopTokens: [], sampling: SAMPLING, allowedTokens: () => oddIds });
    expect(group).toHaveLength(2);
    for (const g of [single, ...group]) {
      expect(g.tokens).toHaveLength(4);
      expect(g.logprobs).toHaveLength(4);
      for (const id of g.tokens) expect(id % 2).toBe(1);
      const scored = await model.logprobs([...PROMPT, ...g.tokens], { temperature: SAMPLING.temperature });
      Array.from(scored.subarray(PROMPT.length - 1)).forEach((lp, i) => expect(Math.abs(lp - g.logprobs[i])).toBeLessThan(1e-4));
    }
  });

  it('rejects a group size that is not a positive integer', async () => {
    await expect(model.generateGroup(PROMPT, { n: 0, maxNewTokens: 2 })).rejects.toThrow(BatonError);
  });
});

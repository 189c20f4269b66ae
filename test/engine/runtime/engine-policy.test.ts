/**
 * EnginePolicy, the engine behind core/rl's Policy, on a tiny model with a (cut-down) Qwen tokenizer:
 * chat prompts, stop strings, and the property GRPO rests on: the logprobs recorded while sampling
 * equal the ones a later scoring pass computes for the same tokens.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Policy } from '../../../src/core/rl/index.ts';
import { filesFromDir } from '../../../src/engine/model/files-node.ts';
import { openModel } from '../../../src/engine/model/index.ts';
import { EnginePolicy, GpuModel, type TokenMasks } from '../../../src/engine/runtime/index.ts';
import { loadTokenizer, type Tokenizer } from '../../../src/engine/tokenizer/index.ts';
import { writeTinyModel } from '../../support/tiny-model.ts';
import { useTestDevice } from '../../support/webgpu.ts';

const MESSAGES = [{ role: 'user' as const, content: 'Plan the steps.' }];
const SAMPLING = { temperature: 1, seed: 3 };

describe('EnginePolicy', () => {
  const device = useTestDevice();
  let dir: string;
  let model: GpuModel;
  let tokenizer: Tokenizer;
  let policy: EnginePolicy;

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'baton-policy-'));
    await writeTinyModel(dir, { architecture: 'qwen3', dtype: 'F32', seed: 21, tokenizer: 'small' });
    const files = filesFromDir(dir);
    model = await GpuModel.load(device(), await openModel(files), { weights: 'f32' });
    tokenizer = await loadTokenizer(files);
    policy = new EnginePolicy(model, tokenizer);
  });
  afterAll(async () => {
    model?.destroy();
    await rm(dir, { recursive: true, force: true });
  });

  it('samples a group from chat messages; scoring the same tokens later gives the same logprobs', async () => {
    const asPolicy: Policy = policy;
    const group = await asPolicy.generateGroup(MESSAGES, { n: 3, maxNewTokens: 5, sampling: SAMPLING });
    const promptIds = tokenizer.encodeChat(MESSAGES, { continueFinal: false });
    expect(group.map((c) => c.index)).toEqual([0, 1, 2]);
    for (const c of group) {
      expect(c.promptIds).toEqual(promptIds);
      expect(c.text).toBe(tokenizer.decode(c.tokens, { skipSpecialTokens: true }));
      const scored = await asPolicy.logprobs([...promptIds, ...c.tokens], { temperature: SAMPLING.temperature });
      const tail = Array.from(scored.subarray(promptIds.length - 1));
      tail.forEach((lp, i) => expect(Math.abs(lp - c.logprobs[i])).toBeLessThan(1e-4));
    }
    // The same prompt given as ids, with the same seed, is the same group.
    const again = await policy.generateGroup(promptIds, { n: 3, maxNewTokens: 5, sampling: SAMPLING });
    expect(again.map((c) => c.tokens)).toEqual(group.map((c) => c.tokens));
  });

  it('ends a completion at the token that completes a stop string', async () => {
    const [free] = await policy.generateGroup(MESSAGES, { n: 1, maxNewTokens: 8, sampling: SAMPLING });
    const text = (k: number) => tokenizer.decode(free.tokens.slice(0, k));
    const target = text(4);
    const stop = target.slice(-2).trim() || target.slice(-2);
    const end = free.tokens.findIndex((_, i) => text(i + 1).includes(stop)) + 1;
    const [stopped] = await policy.generateGroup(MESSAGES, { n: 1, maxNewTokens: 8, sampling: SAMPLING, stopStrings: [stop] });
    expect(free.tokens.length).toBe(8);
    expect(end).toBeGreaterThan(0);
    expect(end).toBeLessThanOrEqual(4);
    expect(stopped.tokens).toEqual(free.tokens.slice(0, end));
    expect(stopped.finishReason).toBe('stop');
  });

  it('samples only what a token mask allows, ends when the mask says so, and keeps unmasked logprobs', async () => {
    // A toy constraint: even ids only, finished after three tokens.
    const evenIds = new Uint32Array(Math.ceil(model.config.vocabSize / 32)).fill(0x55555555);
    const constraint: TokenMasks<number> = { start: () => 0, mask: () => evenIds, advance: (k) => k + 1, isFinished: (k) => k >= 3 };
    const group = await policy.generateGroup(MESSAGES, { n: 2, maxNewTokens: 8, sampling: SAMPLING, constraint });
    for (const c of group) {
      expect(c.tokens).toHaveLength(3);
      expect(c.finishReason).toBe('stop');
      for (const id of c.tokens) expect(id % 2).toBe(0);
      const scored = await policy.logprobs([...c.promptIds, ...c.tokens]);
      Array.from(scored.subarray(c.promptIds.length - 1)).forEach((lp, i) => expect(Math.abs(lp - c.logprobs[i])).toBeLessThan(1e-4));
    }
  });
});

/**
 * The GPU runtime against the float64 reference forward (runtime/forward.ref.ts) on tiny random
 * models of each architecture: logits of a prompt, logits through the KV cache one token at a
 * time, logprobs, and greedy generation token for token.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { GpuModel, createRefKvCache, loadRefModel, refForward, refLogprobs, type RefModel } from '../../../src/engine/runtime/index.ts';
import { filesFromDir } from '../../../src/engine/model/files-node.ts';
import { openModel } from '../../../src/engine/model/index.ts';
import { logSoftmaxRef } from '../../../src/engine/kernels/index.ts';
import { checkTensor } from '../../support/check-tensor.ts';
import { writeTinyModel, type TinyModelOptions } from '../../support/tiny-model.ts';
import { useTestDevice } from '../../support/webgpu.ts';

const LOGITS = { abs: 1e-4, rel: 1e-3 };
const VOCAB = 256;
const PROMPT = [17, 3, 250, 99, 42, 7, 128];

// matmulLanes 32 is the GPU layout (coalesced loads, reduction over lanes); SwiftShader defaults to 1.
describe.each<Pick<TinyModelOptions, 'architecture' | 'dtype' | 'tied'> & { matmulLanes?: number }>([
  { architecture: 'qwen2', dtype: 'F32' },
  { architecture: 'qwen3', dtype: 'BF16' },
  { architecture: 'llama', dtype: 'F32', tied: true },
  { architecture: 'qwen2', dtype: 'BF16', matmulLanes: 32 },
])('GpuModel $architecture $dtype, matmul lanes $matmulLanes', ({ matmulLanes, ...options }) => {
  const device = useTestDevice();
  let dir: string;
  let model: GpuModel;
  let ref: RefModel;

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'baton-gpu-model-'));
    await writeTinyModel(dir, { ...options, seed: 7, vocab: VOCAB });
    const opened = await openModel(filesFromDir(dir));
    model = await GpuModel.load(device(), opened, { weights: 'f32', ...(matmulLanes ? { matmulLanes } : {}) });
    ref = await loadRefModel(opened.tensors, opened.config);
  });
  afterAll(async () => {
    model?.destroy();
    await rm(dir, { recursive: true, force: true });
  });

  it('gives the reference logits for a whole prompt (prefill)', async () => {
    checkTensor('prefill logits', await model.forward(PROMPT), refForward(ref, PROMPT), LOGITS);
  });

  it('gives the reference logits token by token through the KV cache', async () => {
    const cache = model.createKvCache(2); // grows while decoding
    const refCache = createRefKvCache(ref.config);
    const split = 3;
    const first = await model.forward(PROMPT.slice(0, split), { cache });
    checkTensor('prefill part', first, refForward(ref, PROMPT.slice(0, split), { kv: refCache }), LOGITS);
    for (const id of PROMPT.slice(split)) {
      checkTensor(`decode ${id}`, await model.forward([id], { cache }), refForward(ref, [id], { kv: refCache }), LOGITS);
    }
    expect(cache.length).toBe(PROMPT.length);
    cache.destroy();
  });

  it('gives the reference logprobs in one pass, at temperature 1 and 0.7', async () => {
    for (const temperature of [1, 0.7]) {
      checkTensor(`logprobs T=${temperature}`, await model.logprobs(PROMPT, { temperature }), refLogprobs(ref, PROMPT, { temperature }), {
        abs: 1e-4,
        rel: 1e-3,
      });
    }
  });

  it('decodes greedily the same token chain as the reference, with its logprobs, and stops at a stop token', async () => {
    const steps = 5;
    const chain: number[] = [];
    const ids = [...PROMPT];
    for (let i = 0; i < steps; i++) {
      const logits = refForward(ref, ids);
      let best = 0;
      for (let v = 1; v < VOCAB; v++) if (logits[(ids.length - 1) * VOCAB + v] > logits[(ids.length - 1) * VOCAB + best]) best = v;
      chain.push(best);
      ids.push(best);
    }
    const generation = await model.generate(PROMPT, { maxNewTokens: steps, stopTokens: [] });
    expect(generation.tokens).toEqual(chain);
    expect(generation.finishReason).toBe('length');
    const logits = refForward(ref, ids.slice(0, -1));
    expect(generation.logprobs).toHaveLength(steps);
    generation.logprobs.forEach((lp, i) => {
      const row = logits.subarray((PROMPT.length - 1 + i) * VOCAB, (PROMPT.length + i) * VOCAB);
      expect(lp).toBeCloseTo(logSoftmaxRef(row, 1, VOCAB)[chain[i]], 3);
    });

    const stopped = await model.generate(PROMPT, { maxNewTokens: steps, stopTokens: [chain[1]] });
    expect(stopped.tokens).toEqual(chain.slice(0, chain.indexOf(chain[1]) + 1)); // the chain may repeat a token
    expect(stopped.finishReason).toBe('stop');
  });
});

describe('GpuModel with a sliding attention window', () => {
  const device = useTestDevice();

  it('runs up to the window and refuses longer contexts with a clear error, instead of attending wrongly', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'baton-window-'));
    try {
      await writeTinyModel(dir, { architecture: 'qwen2', dtype: 'F32', seed: 7, vocab: VOCAB, tokenizer: 'none' });
      const opened = await openModel(filesFromDir(dir));
      const model = await GpuModel.load(device(), { ...opened, config: { ...opened.config, slidingWindow: PROMPT.length } }, { weights: 'f32' });
      try {
        expect((await model.forward(PROMPT)).length).toBe(PROMPT.length * VOCAB);
        await expect(model.forward([...PROMPT, 5])).rejects.toMatchObject({
          code: 'engine/unsupported',
          message: expect.stringMatching(/sliding attention window of 7 tokens/),
        });
        await expect(model.generate(PROMPT, { maxNewTokens: 3 })).rejects.toMatchObject({ code: 'engine/unsupported' });
      } finally {
        model.destroy();
      }
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});

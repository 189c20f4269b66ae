/**
 * The fused inference forward (forward-fused.ts) against the unfused one training mirrors: the same
 * logits over a prefill and several decode steps through the KV cache, f32 and int4 weights, without
 * and with a LoRA adapter (on every projection, and on some only, which mixes fused and split MLPs),
 * in fewer dispatches; decode steps through attentionDecode (q/k/v inside attention) against the unfused
 * path and the float64 reference, with the KV caches they leave; and after full fine-tuning changes a
 * weight in place, refreshFusedWeights makes the fused path follow it.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { filesFromDir } from '../../../src/engine/model/files-node.ts';
import { openModel, readPeftAdapter, type LoraAdapter, type OpenedModel } from '../../../src/engine/model/index.ts';
import { createRefKvCache, GpuModel, loadRefModel, refForward, type KvCache, type WeightFormat } from '../../../src/engine/runtime/index.ts';
import { int4TensorNames, roundTripped } from '../quant/round-tripped-model.ts';
import { checkTensor, randomTensor } from '../../support/check-tensor.ts';
import { writeRandomAdapter, writeTinyModel } from '../../support/tiny-model.ts';
import { useTestDevice } from '../../support/webgpu.ts';

const LOGITS = { abs: 1e-4, rel: 1e-3 };
const PROMPT = [17, 3, 250, 99, 42];
const STEPS = [7, 128, 64, 200];
const ALL = ['q_proj', 'k_proj', 'v_proj', 'o_proj', 'gate_proj', 'up_proj', 'down_proj'];

describe.each<{ weights: WeightFormat; lora: readonly string[] | undefined; matmulLanes?: number }>([
  { weights: 'f32', lora: undefined },
  { weights: 'int4', lora: undefined },
  { weights: 'f32', lora: ALL },
  { weights: 'int4', lora: ['q_proj', 'v_proj', 'up_proj'] },
  { weights: 'f32', lora: ['k_proj', 'gate_proj'], matmulLanes: 32 },
])('fused forward, $weights weights, LoRA on $lora, lanes $matmulLanes', ({ weights, lora, matmulLanes }) => {
  const device = useTestDevice();
  let dir: string;
  let opened: OpenedModel;
  let fused: GpuModel;
  let unfused: GpuModel;

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'baton-fused-'));
    const tiny = await writeTinyModel(join(dir, 'model'), { architecture: 'qwen2', dtype: 'F32', seed: 11, vocab: 256 });
    opened = await openModel(filesFromDir(join(dir, 'model')));
    const options = { weights, ...(matmulLanes ? { matmulLanes } : {}) };
    fused = await GpuModel.load(device(), opened, options);
    unfused = await GpuModel.load(device(), opened, { ...options, fused: false });
    if (lora) {
      await writeRandomAdapter(join(dir, 'adapter'), { model: tiny.config, r: 4, alpha: 8, targetModules: [...lora], seed: 12 });
      const adapter: LoraAdapter = await readPeftAdapter(filesFromDir(join(dir, 'adapter')), tiny.config);
      await fused.setLora(adapter);
      await unfused.setLora(adapter);
    }
  });
  afterAll(async () => {
    fused?.destroy();
    unfused?.destroy();
    await rm(dir, { recursive: true, force: true });
  });

  it('gives the unfused logits for a prompt and then token by token, in fewer dispatches', async () => {
    const [a, b] = [fused.createKvCache(), unfused.createKvCache()];
    try {
      checkTensor('prefill logits', await fused.forward(PROMPT, { cache: a }), await unfused.forward(PROMPT, { cache: b }), LOGITS);
      for (const [i, id] of STEPS.entries()) {
        const before = device().dispatches;
        const got = await fused.forward([id], { cache: a, lastOnly: true });
        const fusedDispatches = device().dispatches - before;
        const expected = await unfused.forward([id], { cache: b, lastOnly: true });
        const unfusedDispatches = device().dispatches - before - fusedDispatches;
        checkTensor(`decode step ${i} logits`, got, expected, LOGITS);
        expect(fusedDispatches).toBeLessThan(unfusedDispatches);
      }
    } finally {
      a.destroy();
      b.destroy();
    }
  });

  it('samples a group (several cache slots a step) as the unfused path does', async () => {
    const options = { n: 3, maxNewTokens: 5, stopTokens: [], sampling: { temperature: 0.9, seed: 5 } };
    const [got, expected] = [await fused.generateGroup(PROMPT, options), await unfused.generateGroup(PROMPT, options)];
    expect(got.map((g) => g.tokens)).toEqual(expected.map((g) => g.tokens));
    got.forEach((g, i) => checkTensor(`completion ${i} logprobs`, g.logprobs, expected[i].logprobs, LOGITS));
  });

  it('gives the unfused logprobs, with and without the adapter', async () => {
    const ids = [...PROMPT, ...STEPS];
    checkTensor('logprobs', await fused.logprobs(ids, { temperature: 0.8 }), await unfused.logprobs(ids, { temperature: 0.8 }), LOGITS);
    checkTensor('base logprobs', await fused.logprobs(ids, { baseOnly: true }), await unfused.logprobs(ids, { baseOnly: true }), LOGITS);
  });
});

describe.each<{ weights: WeightFormat }>([{ weights: 'f32' }, { weights: 'int4' }])(
  'fused decode with its own q/k/v in attention, 3 query heads per KV head, $weights weights',
  ({ weights }) => {
    const device = useTestDevice();
    let dir: string;

    beforeAll(async () => {
      dir = await mkdtemp(join(tmpdir(), 'baton-fused-decode-'));
    });
    afterAll(async () => {
      await rm(dir, { recursive: true, force: true });
    });

    it('gives the unfused and the float64 logits step by step, and the same KV cache', async () => {
      const tiny = await writeTinyModel(dir, {
        architecture: 'qwen2',
        dtype: 'F32',
        seed: 17,
        hidden: 96,
        heads: 6,
        kvHeads: 2,
        vocab: 256,
        tokenizer: 'none',
      });
      const opened = await openModel(filesFromDir(dir));
      const base = await loadRefModel(opened.tensors, tiny.config);
      const ref = weights === 'int4' ? roundTripped(base, int4TensorNames(base, true)) : base;
      const fused = await GpuModel.load(device(), opened, { weights });
      const unfused = await GpuModel.load(device(), opened, { weights, fused: false });
      const [a, b] = [fused.createKvCache(), unfused.createKvCache()];
      const refCache = createRefKvCache(tiny.config);
      try {
        await fused.forward(PROMPT, { cache: a });
        await unfused.forward(PROMPT, { cache: b });
        refForward(ref, PROMPT, { kv: refCache });
        for (const id of STEPS) {
          const got = await fused.forward([id], { cache: a });
          checkTensor(`decode ${id} against unfused`, got, await unfused.forward([id], { cache: b }), LOGITS);
          checkTensor(`decode ${id} against float64`, got, refForward(ref, [id], { kv: refCache }), LOGITS);
        }
        const rows = (c: KvCache) => (c.length * c.rowBytes) / 4;
        for (let layer = 0; layer < tiny.config.numLayers; layer++) {
          checkTensor(`layer ${layer} keys`, await device().readF32(a.k[layer], 0, rows(a)), refCache.k[layer], LOGITS);
          checkTensor(`layer ${layer} values`, await device().readF32(a.v[layer], 0, rows(a)), await device().readF32(b.v[layer], 0, rows(b)), LOGITS);
        }
      } finally {
        a.destroy();
        b.destroy();
        fused.destroy();
        unfused.destroy();
      }
    });
  },
);

describe('fused forward after full fine-tuning changes a weight in place', () => {
  const device = useTestDevice();
  let dir: string;

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'baton-fused-refresh-'));
    await writeTinyModel(dir, { architecture: 'qwen2', dtype: 'F32', seed: 13, vocab: 256 });
  });
  afterAll(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  it('follows the new weights once refreshFusedWeights has copied them', async () => {
    const opened = await openModel(filesFromDir(dir));
    const fused = await GpuModel.load(device(), opened, { weights: 'f32' });
    const unfused = await GpuModel.load(device(), opened, { weights: 'f32', fused: false });
    try {
      for (const model of [fused, unfused]) {
        const { up, q } = model.weights.layers[1];
        device().write(up.chunks[0].buffer, randomTensor(up.rows * up.cols, 14));
        device().write(q.chunks[0].buffer, randomTensor(q.rows * q.cols, 15));
      }
      const expected = await unfused.forward(PROMPT);
      const stale = await fused.forward(PROMPT);
      expect(Math.max(...stale.map((v, i) => Math.abs(v - expected[i])))).toBeGreaterThan(1e-2);
      await fused.refreshFusedWeights();
      checkTensor('logits after the refresh', await fused.forward(PROMPT), expected, LOGITS);
    } finally {
      fused.destroy();
      unfused.destroy();
    }
  });
});

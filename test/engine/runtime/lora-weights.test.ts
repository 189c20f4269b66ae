/** LoRA applied beside the frozen weights on the GPU, against the reference forward with the adapter. */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BatonError } from '../../../src/core/errors/index.ts';
import { filesFromDir } from '../../../src/engine/model/files-node.ts';
import { openModel, readPeftAdapter, type LoraAdapter } from '../../../src/engine/model/index.ts';
import { loadRefModel, refForward, refLogprobs, type RefModel, GpuModel } from '../../../src/engine/runtime/index.ts';
import { checkTensor } from '../../support/check-tensor.ts';
import { writeRandomAdapter, writeTinyModel } from '../../support/tiny-model.ts';
import { useTestDevice } from '../../support/webgpu.ts';

const LOGITS = { abs: 1e-4, rel: 1e-3 };
const IDS = [5, 200, 31, 77, 4];

describe('GpuModel with a LoRA adapter', () => {
  const device = useTestDevice();
  let dir: string;
  let model: GpuModel;
  let ref: RefModel;
  let adapter: LoraAdapter;

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'baton-lora-'));
    const tiny = await writeTinyModel(join(dir, 'model'), { architecture: 'qwen2', dtype: 'BF16', seed: 3, vocab: 256 });
    await writeRandomAdapter(join(dir, 'adapter'), {
      model: tiny.config,
      r: 4,
      alpha: 8,
      targetModules: ['q_proj', 'k_proj', 'v_proj', 'o_proj', 'gate_proj', 'up_proj', 'down_proj'],
      seed: 9,
    });
    adapter = await readPeftAdapter(filesFromDir(join(dir, 'adapter')), tiny.config);
    const opened = await openModel(filesFromDir(join(dir, 'model')));
    model = await GpuModel.load(device(), opened, { weights: 'f32' });
    ref = await loadRefModel(opened.tensors, opened.config);
  });
  afterAll(async () => {
    model?.destroy();
    await rm(dir, { recursive: true, force: true });
  });

  it('gives the reference logits and logprobs with the adapter, and the base ones once it is switched off', async () => {
    await model.setLora(adapter);
    expect(model.hasLora).toBe(true);
    const adapted = refForward(ref, IDS, { lora: adapter });
    checkTensor('lora logits', await model.forward(IDS), adapted, LOGITS);
    checkTensor('lora logprobs', await model.logprobs(IDS), refLogprobs(ref, IDS, { lora: adapter }), LOGITS);
    // GRPO's KL reference: the base model, with the adapter still loaded.
    checkTensor('base-only logprobs', await model.logprobs(IDS, { baseOnly: true }), refLogprobs(ref, IDS), LOGITS);
    expect(model.hasLora).toBe(true);

    await model.setLora(undefined);
    const base = refForward(ref, IDS);
    checkTensor('base logits', await model.forward(IDS), base, LOGITS);
    // The adapter must matter, or the first check proved nothing.
    expect(Math.max(...adapted.map((z, i) => Math.abs(z - base[i])))).toBeGreaterThan(0.05);
  });

  it('refuses an adapter whose shapes do not fit the model', async () => {
    const [path, w] = [...adapter.weights][0];
    const wrong: LoraAdapter = { config: adapter.config, weights: new Map([[path, { ...w, inFeatures: w.inFeatures + 1 }]]) };
    const error = await model.setLora(wrong).catch((e: unknown) => e);
    expect(BatonError.is(error, 'engine/model-file')).toBe(true);
    expect(model.hasLora).toBe(false);
  });
});

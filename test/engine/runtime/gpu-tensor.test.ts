/**
 * Tensors above the storage binding limit are split in row chunks: with a tiny limit every weight
 * of a tiny model is split (embedding, projections, LM head) and logits rows are chunked, and the
 * results still match the reference.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BatonError } from '../../../src/core/errors/index.ts';
import { filesFromDir } from '../../../src/engine/model/files-node.ts';
import { openModel, type OpenedModel } from '../../../src/engine/model/index.ts';
import { loadRefModel, refForward, refLogprobs, type RefModel, GpuModel } from '../../../src/engine/runtime/index.ts';
import { checkTensor } from '../../support/check-tensor.ts';
import { storedWeightsRef } from '../../support/stored-weights-ref.ts';
import { writeTinyModel } from '../../support/tiny-model.ts';
import { adapterHasShaderF16, useTestDevice, weightDtypes } from '../../support/webgpu.ts';

const VOCAB = 256;
const IDS = [9, 100, 255, 0, 64, 32, 8];
const F16 = await adapterHasShaderF16();
const DTYPES = await weightDtypes();

describe('weights split in row chunks', () => {
  const device = useTestDevice();
  let dir: string;
  let opened: OpenedModel;
  let original: RefModel;

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'baton-split-'));
    await writeTinyModel(dir, { architecture: 'qwen3', dtype: 'F32', seed: 5, vocab: VOCAB, tied: true });
    opened = await openModel(filesFromDir(dir));
    original = await loadRefModel(opened.tensors, opened.config);
  });
  afterAll(async () => rm(dir, { recursive: true, force: true }));

  for (const [title, dtype, skip] of DTYPES) {
    it.skipIf(skip)(`match the reference on the stored ${title} weights when every tensor and the logits are chunked`, async () => {
      const maxBindingBytes = 3 * VOCAB * 4; // 3 rows of logits; 12 (f32) or 24 (f16) rows of a 64-wide weight
      const model = await GpuModel.load(device(), opened, { weights: dtype, maxBindingBytes });
      expect(model.weights.embed.chunks.length).toBeGreaterThan(1);
      expect(model.weights.layers[0].down.chunks.length).toBeGreaterThan(1);
      const ref = storedWeightsRef(original, model.weights);
      const full = refForward(ref, IDS);
      const last = full.subarray((IDS.length - 1) * VOCAB);
      checkTensor('last logits', await model.forward(IDS, { lastOnly: true }), last, { abs: 1e-4, rel: 1e-3 });
      checkTensor('logprobs', await model.logprobs(IDS), refLogprobs(ref, IDS), { abs: 1e-4, rel: 1e-3 });
      const error = await model.forward(IDS).catch((e: unknown) => e);
      expect(BatonError.is(error, 'engine/unsupported')).toBe(true);
      model.destroy();
    });
  }

  it.skipIf(F16)('refuses f16 weights on a device without shader-f16 (skipped where the adapter has it)', async () => {
    const error = await GpuModel.load(device(), opened, { weights: 'f16' }).catch((e: unknown) => e);
    expect(BatonError.is(error, 'engine/unsupported')).toBe(true);
  });
});

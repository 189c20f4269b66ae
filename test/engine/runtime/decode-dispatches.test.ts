/**
 * dispatchesPerDecodeStep (what the bench reports) on the fused path: 1 embedding + 4 per layer (attention with its
 * own q/k/v, o, gate/up with SwiGLU, down) + the LM head, + the sampler where sampling runs on the GPU; at
 * Qwen2.5-0.5B's 24 layers, 99 with the sampler. Top-k and top-p add none: the sampler is one dispatch in every mode.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { filesFromDir } from '../../../src/engine/model/files-node.ts';
import { openModel } from '../../../src/engine/model/index.ts';
import { dispatchesPerDecodeStep, GpuModel } from '../../../src/engine/runtime/index.ts';
import { writeTinyModel } from '../../support/tiny-model.ts';
import { useTestDevice } from '../../support/webgpu.ts';

describe('dispatchesPerDecodeStep', () => {
  const device = useTestDevice();
  let dir: string;

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'baton-dispatches-'));
  });
  afterAll(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  it.each([
    { layers: 2, gpuSampling: false, expected: 10, sampling: undefined },
    { layers: 2, gpuSampling: true, expected: 11, sampling: undefined },
    { layers: 2, gpuSampling: true, expected: 11, sampling: { temperature: 1, topK: 20, topP: 0.9 } },
    { layers: 24, gpuSampling: true, expected: 99, sampling: undefined },
  ])('$layers layers, GPU sampling $gpuSampling, sampling $sampling: $expected', async ({ layers, gpuSampling, expected, sampling }) => {
    const tiny = await writeTinyModel(join(dir, `l${layers}`), {
      architecture: 'qwen2',
      dtype: 'F32',
      seed: 21,
      hidden: 32,
      layers,
      vocab: 256,
      tokenizer: 'none',
    });
    const model = await GpuModel.load(device(), await openModel(filesFromDir(tiny.dir)), { weights: 'int4', gpuSampling });
    try {
      expect(await dispatchesPerDecodeStep(model, [5, 9, 14], sampling)).toBe(expected);
    } finally {
      model.destroy();
    }
  });
});

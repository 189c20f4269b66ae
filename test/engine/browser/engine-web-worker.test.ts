/**
 * The engine in a module web worker of headless Chromium (WebGPU on SwiftShader), its model read over
 * HTTP Range requests (./worker-page.ts): the logprobs the worker computes, from f32 and from int4
 * weights, must equal the float64 reference (on the weights int4 reads back, for int4) computed here in Node.
 */
import { describe, expect, it } from 'vitest';
import { loadRefModel, refLogprobs } from '../../../src/engine/runtime/index.ts';
import { checkTensor } from '../../support/check-tensor.ts';
import { int4TensorNames, roundTripped } from '../quant/round-tripped-model.ts';
import { useWorkerPage } from './worker-page.ts';

const IDS = [9, 140, 33, 201, 5, 77];

describe('the engine in a browser web worker', () => {
  const worker = useWorkerPage({ model: { architecture: 'qwen3', dtype: 'BF16', seed: 13, vocab: 256, tokenizer: 'none' } });

  it('loads a model over HTTP and computes the reference logprobs on navigator.gpu, with f32 and int4 weights', async () => {
    const opened = await worker().openModel('model');
    const ref = await loadRefModel(opened.tensors, opened.config);
    const refs = { f32: ref, int4: roundTripped(ref, int4TensorNames(ref, true)) };
    for (const weights of ['f32', 'int4'] as const) {
      const reply = await worker().call({ kind: 'logprobs', modelUrl: worker().modelUrl('model'), ids: IDS, weights });
      expect(reply.gpu.architecture).toBe('swiftshader');
      checkTensor(`worker logprobs (${weights})`, reply.logprobs, refLogprobs(refs[weights], IDS), { abs: 1e-4, rel: 1e-3 });
    }
  });
});

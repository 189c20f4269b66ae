// core/rl's grpoStep over the GPU trainer against grpoStep over the float64 reference trainer on the
// same batch (completions of different lengths, old logprobs that clip, beta > 0, temperature 0.7):
// loss, metrics, gradient norm, the gradient and the updated adapter, for each loss type; micro-batch
// invariance; the model sampling with the updated adapter right after the step.
import { describe, expect, it } from 'vitest';
import { grpoStep, type GrpoLossType, type TrainStepOptions } from '../../../src/core/rl/index.ts';
import { refForward, refLogprobs } from '../../../src/engine/runtime/index.ts';
import { checkTensor } from '../../support/check-tensor.ts';
import { useTestDevice } from '../../support/webgpu.ts';
import { adapterPair, BATCH, CapturingGpu, CapturingRef, tinyPair, withOldLogprobs } from './fixtures.ts';

const GRADIENT = { abs: 1e-5, rel: 1e-3 };
const LR = 1e-3;

const options = (lossType: GrpoLossType, microBatchSize = 2): TrainStepOptions => ({
  grpo: { beta: 0.04, epsilonLow: 0.2, epsilonHigh: 0.28, lossType, maxCompletionLength: 8 },
  scaleRewards: 'group',
  temperature: 0.7,
  microBatchSize,
});

describe('grpoStep over GpuTrainer against RefTrainer', () => {
  const device = useTestDevice();
  const batch = withOldLogprobs(BATCH, 8);

  it.each(['bnpo', 'grpo', 'dr_grpo'] as const)('takes the reference step with loss type %s', async (lossType) => {
    const pair = await tinyPair(device(), 'qwen3', 'f32');
    try {
      const adapters = adapterPair(pair.ref, 4);
      const gpu = await CapturingGpu.create(pair.gpu, { wrt: 'lora', lora: adapters.gpu, optimizer: { lr: LR } });
      const ref = new CapturingRef(pair.ref, { wrt: 'lora', lora: adapters.ref, optimizer: { lr: LR } });
      const [g, r] = [await grpoStep(gpu, batch, options(lossType)), await grpoStep(ref, batch, options(lossType))];
      expect(g.skipped).toBeUndefined();
      expect(r.clipRatio.regionMean).toBeGreaterThan(0);
      expect(r.clipRatio.lowMean).toBeGreaterThan(0);
      expect(g.clipRatio).toEqual(r.clipRatio);
      expect({ tokens: g.tokens, step: g.step, lr: g.lr }).toEqual({ tokens: r.tokens, step: 1, lr: LR });
      for (const key of ['loss', 'kl', 'entropy', 'gradNorm'] as const) {
        expect(Math.abs(g[key]! - r[key]!), key).toBeLessThanOrEqual(1e-5 + 1e-4 * Math.abs(r[key]!));
      }
      expect(r.kl).toBeGreaterThan(0);
      for (const [name, expected] of ref.captured) checkTensor(name, gpu.captured.get(name)!, expected, GRADIENT);
      // The adapter after the step, read back from the buffers the model samples with.
      const trained = await gpu.trainer.adapter();
      for (const [path, m] of adapters.ref.weights) {
        const got = trained.weights.get(path)!;
        checkTensor(`${path} A after the step`, got.A, m.A, { abs: 1e-3 * LR, rel: 1e-6 });
        checkTensor(`${path} B after the step`, got.B, m.B, { abs: 1e-3 * LR, rel: 1e-6 });
      }
      gpu.trainer.destroy();
    } finally {
      await pair.cleanup();
    }
  });

  it('gives the same gradient with micro-batches of 1 and of the whole batch', async () => {
    const pair = await tinyPair(device(), 'qwen2', 'f32');
    try {
      const adapters = adapterPair(pair.ref, 6);
      const run = async (micro: number) => {
        const gpu = await CapturingGpu.create(pair.gpu, { wrt: 'lora', lora: adapters.gpu, optimizer: { lr: 0 } });
        const result = await grpoStep(gpu, batch, options('bnpo', micro));
        gpu.trainer.destroy();
        return { result, grads: gpu.captured };
      };
      const [one, all] = [await run(1), await run(5)];
      expect(one.result.loss).toBeCloseTo(all.result.loss, 6);
      for (const [name, g] of all.grads) checkTensor(name, one.grads.get(name)!, g, { abs: 1e-6, rel: 1e-4 });
    } finally {
      await pair.cleanup();
    }
  });

  it('makes GpuModel.logprobs and generate use the updated adapter right after each step', async () => {
    const pair = await tinyPair(device(), 'llama', 'f32', { tied: true });
    try {
      const adapters = adapterPair(pair.ref, 9);
      const [prompt, completion] = [
        [3, 9, 14],
        [5, 7, 2],
      ];
      const ids = [...prompt, ...completion];
      const gpu = await CapturingGpu.create(pair.gpu, { wrt: 'lora', lora: adapters.gpu, optimizer: { lr: 0.05 } });
      const ref = new CapturingRef(pair.ref, { wrt: 'lora', lora: adapters.ref, optimizer: { lr: 0.05 } });
      const before = await pair.gpu.logprobs(ids, { temperature: 0.7 });
      // Two steps: the second must start from zeroed gradients and the first step's adapter.
      for (let step = 0; step < 2; step++) {
        await grpoStep(gpu, batch, options('bnpo'));
        await grpoStep(ref, batch, options('bnpo'));
      }
      const expected = refLogprobs(pair.ref, ids, { temperature: 0.7, lora: adapters.ref });
      const after = await pair.gpu.logprobs(ids, { temperature: 0.7 });
      checkTensor('logprobs with the updated adapter', after, expected, { abs: 1e-4, rel: 1e-3 });
      // The step must have moved them, or sampling the initial policy would pass too.
      expect(Math.max(...after.map((v, i) => Math.abs(v - before[i])))).toBeGreaterThan(1e-2);
      const generated = await pair.gpu.generate(prompt, { maxNewTokens: 4, stopTokens: [], sampling: { temperature: 0.7, seed: 3 } });
      const scored = refLogprobs(pair.ref, [...prompt, ...generated.tokens], { temperature: 0.7, lora: adapters.ref }).slice(prompt.length - 1);
      checkTensor('generated logprobs', generated.logprobs, scored, { abs: 1e-4, rel: 1e-3 });
      gpu.trainer.destroy();
    } finally {
      await pair.cleanup();
    }
  });

  it('takes the reference step when every weight trains (full fine-tuning, beta 0)', async () => {
    const pair = await tinyPair(device(), 'qwen3', 'f32');
    try {
      const full = { ...options('bnpo'), grpo: { ...options('bnpo').grpo, beta: 0 } };
      const gpu = await CapturingGpu.create(pair.gpu, { wrt: 'weights', optimizer: { lr: LR } });
      const ref = new CapturingRef(pair.ref, { wrt: 'weights', optimizer: { lr: LR } });
      const [g, r] = [await grpoStep(gpu, batch, full), await grpoStep(ref, batch, full)];
      for (const key of ['loss', 'entropy', 'gradNorm'] as const) {
        expect(Math.abs(g[key] - r[key]), key).toBeLessThanOrEqual(1e-5 + 1e-4 * Math.abs(r[key]));
      }
      for (const [name, expected] of ref.captured) checkTensor(name, gpu.captured.get(name)!, expected, GRADIENT);
      // The model's own weight buffers hold the updated master weights.
      const w = pair.gpu.weights;
      const tensors = [w.embed, w.norm, ...w.layers.flatMap((l) => [l.q, l.qNorm!, l.down, l.postNorm])];
      for (const t of tensors) {
        const got = await device().readF32(t.chunks[0].buffer, 0, t.rows * t.cols);
        checkTensor(`${t.name} after the step`, got, pair.ref.weights.get(t.name)!, { abs: 1e-3 * LR, rel: 1e-6 });
      }
      // Sampling reads them too: the fused inference path's concatenated copies were refreshed.
      const ids = [3, 17, 42, 5];
      checkTensor('logits after the step', await pair.gpu.forward(ids), refForward(pair.ref, ids), { abs: 1e-4, rel: 1e-3 });
      gpu.trainer.destroy();
    } finally {
      await pair.cleanup();
    }
  });
});

/**
 * LoRA GRPO training in the tab: core/rl's grpoStep over GpuTrainer in a module web worker of headless
 * Chromium, on navigator.gpu (WebGPU on SwiftShader), must take the step RefTrainer takes in Node on
 * the float64 model (for int4 weights, on the weights int4 reads back): the step's loss and metrics,
 * the adapter it exports, and the logprobs the model gives with it right after the step.
 *
 * The model has hidden 32, not 16: int4 stores only rows that are whole groups of 32 weights, so at
 * hidden 16 most projections and the head would stay f32 in the int4 case.
 */
import { describe, expect, it } from 'vitest';
import { grpoStep, type GrpoBatch, type TrainStepOptions } from '../../../src/core/rl/index.ts';
import { ADAPTER_CONFIG, ADAPTER_WEIGHTS, filesFromMemory, readPeftAdapter, writePeftAdapter } from '../../../src/engine/model/index.ts';
import { loadRefModel, refLogprobs } from '../../../src/engine/runtime/index.ts';
import { RefTrainer } from '../../../src/engine/train/index.ts';
import { checkTensor } from '../../support/check-tensor.ts';
import { int4TensorNames, roundTripped } from '../quant/round-tripped-model.ts';
import { adapterPair, BATCH } from '../train/fixtures.ts';
import type { PeftFiles } from './fixture/protocol.ts';
import { useWorkerPage } from './worker-page.ts';

/** Large enough that the logprobs after the step differ clearly from those before it. */
const LR = 0.02;
const OPTIONS: Omit<TrainStepOptions, 'signal'> = {
  grpo: { beta: 0.04, epsilonLow: 0.2, epsilonHigh: 0.28, lossType: 'bnpo', maxCompletionLength: 8 },
  scaleRewards: 'group',
  temperature: 0.8,
  microBatchSize: 2,
};
/**
 * Old logprobs token by token far below the current ones (about -4: vocab 64), far above and near:
 * ratios above 1 + eps_high, below 1 - eps_low and between, so both clips happen and some tokens pass.
 */
const OLD_LOGPROBS = [-6, -2.5, -4];
const batch: GrpoBatch = {
  groups: BATCH.groups.map((g) => ({ ...g, completions: g.completions.map((c) => ({ ...c, oldLogprobs: c.ids.map((_, t) => OLD_LOGPROBS[t % 3]) })) })),
};
/** Scored after the step: the first group's prompt and its first completion. */
const IDS = [3, 9, 14, 5, 7, 2];

const peftBytes = (files: ReturnType<typeof writePeftAdapter>): PeftFiles => ({
  config: new TextDecoder().decode(files[ADAPTER_CONFIG]),
  safetensors: Array.from(files[ADAPTER_WEIGHTS]),
});

describe('LoRA GRPO training in a browser web worker', () => {
  const worker = useWorkerPage({
    model: { architecture: 'qwen3', dtype: 'F32', seed: 21, hidden: 32, heads: 2, kvHeads: 1, layers: 2, intermediate: 64, vocab: 64, tokenizer: 'none' },
  });

  it.each(['f32', 'int4'] as const)('takes the float64 reference step on navigator.gpu with %s weights', async (weights) => {
    const opened = await worker().openModel('model');
    const exact = await loadRefModel(opened.tensors, opened.config);
    const ref = weights === 'int4' ? roundTripped(exact, int4TensorNames(exact, true)) : exact;
    const adapters = adapterPair(ref, 4);
    const before = refLogprobs(ref, IDS, { temperature: OPTIONS.temperature, lora: adapters.ref });

    const reply = await worker().call({
      kind: 'grpo-step',
      modelUrl: worker().modelUrl('model'),
      weights,
      adapter: peftBytes(writePeftAdapter(adapters.gpu)),
      batch,
      options: OPTIONS,
      optimizer: { lr: LR },
      ids: IDS,
    });
    expect(reply.gpu.architecture).toBe('swiftshader');

    // RefTrainer updates adapters.ref in place: afterwards it is the reference's trained adapter.
    const expected = await grpoStep(new RefTrainer(ref, { wrt: 'lora', lora: adapters.ref, optimizer: { lr: LR } }), batch, OPTIONS);
    const got = reply.result;
    expect(got.skipped).toBeUndefined();
    expect(expected.clipRatio.lowMean).toBeGreaterThan(0);
    expect(expected.clipRatio.highMean).toBeGreaterThan(0);
    expect(got.clipRatio).toEqual(expected.clipRatio);
    expect({ tokens: got.tokens, step: got.step, lr: got.lr }).toEqual({ tokens: expected.tokens, step: 1, lr: LR });
    expect(expected.kl).toBeGreaterThan(0);
    for (const key of ['loss', 'kl', 'entropy', 'gradNorm'] as const) {
      expect(Math.abs(got[key]! - expected[key]!), key).toBeLessThanOrEqual(1e-5 + 1e-4 * Math.abs(expected[key]!));
    }

    const trained = await readPeftAdapter(
      filesFromMemory('the worker adapter', {
        [ADAPTER_CONFIG]: new TextEncoder().encode(reply.adapter.config),
        [ADAPTER_WEIGHTS]: Uint8Array.from(reply.adapter.safetensors),
      }),
      ref.config,
    );
    expect([...trained.weights.keys()]).toEqual([...adapters.ref.weights.keys()]);
    for (const [path, m] of adapters.ref.weights) {
      const w = trained.weights.get(path)!;
      checkTensor(`${path} A after the step`, w.A, m.A, { abs: 1e-3 * LR, rel: 1e-6 });
      checkTensor(`${path} B after the step`, w.B, m.B, { abs: 1e-3 * LR, rel: 1e-6 });
    }

    const after = refLogprobs(ref, IDS, { temperature: OPTIONS.temperature, lora: adapters.ref });
    checkTensor('logprobs with the updated adapter', reply.logprobs, after, { abs: 1e-4, rel: 1e-3 });
    // The step must have moved them, or a worker sampling with the adapter from before the step would pass too.
    expect(Math.max(...after.map((v, i) => Math.abs(v - before[i])))).toBeGreaterThan(1e-2);
  });
});

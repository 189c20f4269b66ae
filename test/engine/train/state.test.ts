// A step whose gradient is not finite changes nothing; a run exported after N steps and imported by a
// fresh trainer continues bit for bit as the uninterrupted run; full fine-tuning refuses what it cannot do.
import { describe, expect, it } from 'vitest';
import { BatonError } from '../../../src/core/errors/index.ts';
import { grpoStep, isWeightsState, type TrainingState, type TrainStepOptions, type WeightsTrainingState } from '../../../src/core/rl/index.ts';
import { expectedShapes, filesFromMemory, openTensorSource } from '../../../src/engine/model/index.ts';
import { GpuTrainer } from '../../../src/engine/train/index.ts';
import { useTestDevice } from '../../support/webgpu.ts';
import { adapterPair, BATCH, SEQUENCES, tinyPair, withOldLogprobs } from './fixtures.ts';

const OPTIONS: TrainStepOptions = {
  grpo: { beta: 0.04, epsilonLow: 0.2, epsilonHigh: 0.2, lossType: 'bnpo', maxCompletionLength: 8 },
  scaleRewards: 'group',
  temperature: 0.7,
  microBatchSize: 2,
};
const OPTIMIZER = { lr: 1e-2, weightDecay: 0.1, schedule: { kind: 'cosine' as const, warmupSteps: 1, totalSteps: 5 } };

/** A full fine-tuning state (the test's trainers train every weight). */
function weightsOf(state: TrainingState): WeightsTrainingState {
  if (!isWeightsState(state)) throw new Error('expected every weight in the state');
  return state;
}

/** Every value of the adapter's A and B, in module order. */
async function values(trainer: GpuTrainer): Promise<number[]> {
  return [...(await trainer.adapter()).weights.values()].flatMap((m) => [...m.A, ...m.B]);
}

describe('GpuTrainer state', () => {
  const device = useTestDevice();
  const batch = withOldLogprobs(BATCH, 3);

  it('skips a step whose gradient is not finite, changing nothing, and goes on', async () => {
    const pair = await tinyPair(device(), 'qwen3', 'f32');
    try {
      const trainer = await GpuTrainer.create(pair.gpu, { wrt: 'lora', lora: adapterPair(pair.ref, 2).gpu, optimizer: { lr: 1e-2 } });
      const before = await values(trainer);
      const optimizer = (await trainer.exportState()).optimizer;
      await trainer.forward(SEQUENCES, 0.7);
      await trainer.backward(
        SEQUENCES.map((s, i) => Float64Array.from({ length: s.ids.length - s.completionStart }, (_, t) => (i === 1 && t === 0 ? Number.NaN : 0.5))),
      );
      const skipped = await trainer.applyGradients();
      expect(skipped).toMatchObject({ applied: false, step: 0, lr: 0 });
      expect(skipped.reason).toMatch(/NaN or infinite/);
      expect(await values(trainer)).toEqual(before);
      expect((await trainer.exportState()).optimizer).toEqual(optimizer);
      // The NaN went with the skipped step: the next one is a normal step.
      const next = await grpoStep(trainer, batch, OPTIONS);
      expect(next.skipped).toBeUndefined();
      expect(next.step).toBe(1);
      expect(Number.isFinite(next.gradNorm)).toBe(true);
      expect(await values(trainer)).not.toEqual(before);
      trainer.destroy();
    } finally {
      await pair.cleanup();
    }
  });

  it('resumes from exportState bit for bit: 2 steps, export, import into a fresh trainer, 1 step = 3 steps', async () => {
    const [a, b, c] = [await tinyPair(device(), 'qwen2', 'f32'), await tinyPair(device(), 'qwen2', 'f32'), await tinyPair(device(), 'qwen2', 'f32')];
    try {
      const initial = adapterPair(a.ref, 5).gpu;
      const uninterrupted = await GpuTrainer.create(a.gpu, { wrt: 'lora', lora: initial, optimizer: OPTIMIZER });
      for (let i = 0; i < 3; i++) await grpoStep(uninterrupted, batch, OPTIONS);

      const first = await GpuTrainer.create(b.gpu, { wrt: 'lora', lora: initial, optimizer: OPTIMIZER });
      for (let i = 0; i < 2; i++) await grpoStep(first, batch, OPTIONS);
      const state = await first.exportState();
      first.destroy();
      // A fresh trainer, made with another adapter of the same shape and another learning rate: the state replaces both.
      const resumed = await GpuTrainer.create(c.gpu, { wrt: 'lora', lora: adapterPair(c.ref, 11).gpu, optimizer: { lr: 0.5 } });
      await resumed.importState(state);
      const last = await grpoStep(resumed, batch, OPTIONS);
      expect(last.step).toBe(3);
      expect(await values(resumed)).toEqual(await values(uninterrupted));
      // The model samples with the resumed adapter too.
      expect(await c.gpu.logprobs([3, 9, 14, 5])).toEqual(await a.gpu.logprobs([3, 9, 14, 5]));
      resumed.destroy();
      uninterrupted.destroy();
    } finally {
      for (const p of [a, b, c]) await p.cleanup();
    }
  });

  it('resumes full fine-tuning from exportState bit for bit: every weight (row chunks, tied head) and AdamW', async () => {
    // 576-byte bindings split the 48 x 8 embedding (the tied head) into three row chunks.
    const pairs = await Promise.all([0, 1, 2].map(() => tinyPair(device(), 'llama', 'f32', { tied: true, maxBindingBytes: 576 })));
    const [a, b, c] = pairs;
    const full = { ...OPTIONS, grpo: { ...OPTIONS.grpo, beta: 0 } };
    try {
      expect(c.gpu.weights.embed.chunks.length).toBe(3);
      const uninterrupted = await GpuTrainer.create(a.gpu, { wrt: 'weights', optimizer: OPTIMIZER });
      const initial = weightsOf(await uninterrupted.exportState());
      for (let i = 0; i < 3; i++) await grpoStep(uninterrupted, batch, full);

      const first = await GpuTrainer.create(b.gpu, { wrt: 'weights', optimizer: OPTIMIZER });
      for (let i = 0; i < 2; i++) await grpoStep(first, batch, full);
      const state = weightsOf(await first.exportState());
      first.destroy();
      const source = await openTensorSource(filesFromMemory('state', { 'model.safetensors': state.weights }));
      // The model's own tensor names and shapes, the tied head once.
      expect([...source.tensors.keys()].sort()).toEqual([...expectedShapes(c.gpu.config).keys()].sort());
      for (const [name, shape] of expectedShapes(c.gpu.config)) expect(source.tensors.get(name)?.shape).toEqual(shape);

      // A fresh model and trainer with another learning rate: the state replaces the weights and AdamW's settings.
      const resumed = await GpuTrainer.create(c.gpu, { wrt: 'weights', optimizer: { lr: 0.5 } });
      await resumed.importState(state);
      const last = await grpoStep(resumed, batch, full);
      expect(last.step).toBe(3);
      const [x, y] = [weightsOf(await uninterrupted.exportState()), weightsOf(await resumed.exportState())];
      expect(Buffer.from(y.weights).equals(Buffer.from(x.weights))).toBe(true);
      expect(Buffer.from(y.optimizer).equals(Buffer.from(x.optimizer))).toBe(true);
      expect(Buffer.from(x.weights).equals(Buffer.from(initial.weights))).toBe(false);
      // The model samples with the resumed weights.
      expect(await c.gpu.logprobs([3, 9, 14, 5])).toEqual(await a.gpu.logprobs([3, 9, 14, 5]));
      // A LoRA state is no full one's.
      await expect(resumed.importState({ adapterConfig: '{}', adapter: new Uint8Array(), optimizer: y.optimizer })).rejects.toMatchObject({
        code: 'internal',
        message: expect.stringMatching(/trains every weight/),
      });
      resumed.destroy();
      uninterrupted.destroy();
    } finally {
      for (const p of pairs) await p.cleanup();
    }
  });

  it('moves every weight the way the rewards say: the rewarded completion gains logprob, the unrewarded one loses it', async () => {
    const pair = await tinyPair(device(), 'qwen2', 'f32');
    try {
      const trainer = await GpuTrainer.create(pair.gpu, { wrt: 'weights', optimizer: { lr: 1e-2 } });
      const group = {
        promptIds: [3, 9, 14],
        completions: [
          { ids: [5, 7, 2], reward: 1 },
          { ids: [30, 21, 8], reward: 0 },
        ],
      };
      const total = async (ids: number[]) =>
        (await pair.gpu.logprobs([...group.promptIds, ...ids])).slice(group.promptIds.length - 1).reduce((s, x) => s + x, 0);
      const before = [await total(group.completions[0].ids), await total(group.completions[1].ids)];
      for (let i = 0; i < 3; i++) await grpoStep(trainer, { groups: [group] }, { ...OPTIONS, grpo: { ...OPTIONS.grpo, beta: 0 } });
      const after = [await total(group.completions[0].ids), await total(group.completions[1].ids)];
      expect(after[0]).toBeGreaterThan(before[0] + 0.05);
      expect(after[1]).toBeLessThan(before[1] - 0.05);
      trainer.destroy();
    } finally {
      await pair.cleanup();
    }
  });

  it('refuses full fine-tuning over a base that is not f32, and a KL reference without LoRA', async () => {
    const int4 = await tinyPair(device(), 'qwen3', 'int4');
    const f32 = await tinyPair(device(), 'qwen3', 'f32');
    try {
      await expect(GpuTrainer.create(int4.gpu, { wrt: 'weights', optimizer: { lr: 1e-3 } })).rejects.toThrow(/load it with weights 'f32'/);
      const full = await GpuTrainer.create(f32.gpu, { wrt: 'weights', optimizer: { lr: 1e-3 } });
      const error = await grpoStep(full, batch, OPTIONS).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(BatonError);
      expect(error).toMatchObject({ code: 'run/config', message: expect.stringMatching(/set beta to 0/) });
      full.destroy();
    } finally {
      await int4.cleanup();
      await f32.cleanup();
    }
  });

  it("refuses to go on once the model's adapter was replaced under it", async () => {
    const pair = await tinyPair(device(), 'qwen3', 'f32');
    try {
      const trainer = await GpuTrainer.create(pair.gpu, { wrt: 'lora', lora: adapterPair(pair.ref, 2).gpu, optimizer: { lr: 1e-2 } });
      await pair.gpu.setLora(adapterPair(pair.ref, 3).gpu);
      await expect(trainer.forward(SEQUENCES, 1)).rejects.toThrow(/adapter was replaced \(setLora\)/);
      trainer.destroy();
    } finally {
      await pair.cleanup();
    }
  });
});

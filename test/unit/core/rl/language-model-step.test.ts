// Next-token training (core/rl's languageModelStep) over the float64 reference trainer: the loss is the mean
// negative log-likelihood the float64 forward gives, the step applies its gradient as central differences give
// it whatever the micro-batch size, and training lowers the loss of the text it sees.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { languageModelLoss, languageModelStep } from '../../../../src/core/rl/index.ts';
import { filesFromDir } from '../../../../src/engine/model/files-node.ts';
import { openModel } from '../../../../src/engine/model/index.ts';
import { loadRefModel, refLogprobs, type RefModel } from '../../../../src/engine/runtime/index.ts';
import { RefTrainer } from '../../../../src/engine/train/trainer.ref.ts';
import { checkTensor } from '../../../support/check-tensor.ts';
import { checkGradient } from '../../../support/finite-difference.ts';
import { REF_TRAINING_MODEL, writeTinyModel } from '../../../support/tiny-model.ts';

const root = await mkdtemp(join(tmpdir(), 'baton-lm-step-'));
afterAll(() => rm(root, { recursive: true, force: true }));

async function tinyModel(seed: number): Promise<RefModel> {
  const dir = join(root, `m${seed}`);
  await writeTinyModel(dir, { ...REF_TRAINING_MODEL, architecture: 'qwen3', seed });
  const opened = await openModel(filesFromDir(dir));
  return loadRefModel(opened.tensors, opened.config);
}

/** Sequences of different lengths, two sharing a first token (the engine packs such a pair as one block). */
const SEQUENCES = [
  [3, 17, 5, 9, 30],
  [3, 2, 11],
  [25, 8, 8, 14, 1, 36, 7],
  [6, 39],
];

/** The mean next-token loss from the float64 forward. */
const meanNll = (model: RefModel, sequences: number[][]) => {
  const logprobs = sequences.flatMap((ids) => refLogprobs(model, ids));
  return -logprobs.reduce((a, b) => a + b, 0) / logprobs.length;
};

/** The reference trainer that keeps a copy of the gradient each step applies. */
class Capturing extends RefTrainer {
  captured = new Map<string, Float64Array>();
  override async applyGradients() {
    this.captured = new Map([...this.gradients()].map(([k, g]) => [k, Float64Array.from(g)]));
    return super.applyGradients();
  }
}

describe('languageModelStep', () => {
  it('reports the mean next-token loss and applies its gradient, as central differences give it, for any micro-batch size', async () => {
    const model = await tinyModel(5);
    const loss = () => meanNll(model, SEQUENCES);
    const before = loss();
    const grads: Map<string, Float64Array>[] = [];
    for (const microBatchSize of [1, 3, 4]) {
      const trainer = new Capturing(model, { wrt: 'weights', optimizer: { lr: 0 } });
      const result = await languageModelStep(trainer, SEQUENCES, { microBatchSize });
      expect(result.loss).toBeCloseTo(before, 12);
      expect(result).toMatchObject({ tokens: 13, step: 1, lr: 0 });
      expect(result.gradNorm).toBeGreaterThan(0);
      grads.push(trainer.captured);
    }
    for (const [name, values] of model.weights) {
      // The largest entries of the gradient, and the first and last (an embedding's rows of unseen tokens have none).
      const grad = grads[0].get(name)!;
      const largest = Array.from(grad.keys()).sort((a, b) => Math.abs(grad[b]) - Math.abs(grad[a]));
      const indices = [...new Set([0, values.length - 1, ...largest.slice(0, 3)])];
      const perturbed = (p: Float64Array) => {
        const keep = Float64Array.from(values);
        values.set(p);
        const out = loss();
        values.set(keep);
        return out;
      };
      checkGradient(name, perturbed, values, grad, { indices });
      for (const other of grads.slice(1)) checkTensor(`${name} by micro-batches`, other.get(name)!, grads[0].get(name)!, { abs: 1e-12, rel: 1e-9 });
    }
  });

  it('lowers the loss of the text it trains on, and languageModelLoss measures it without a step', async () => {
    const model = await tinyModel(6);
    const trainer = new RefTrainer(model, { wrt: 'weights', optimizer: { lr: 3e-2 } });
    const start = await languageModelLoss(trainer, SEQUENCES, 2);
    expect(start).toBeCloseTo(meanNll(model, SEQUENCES), 12);
    expect(trainer.step).toBe(0);
    for (let i = 0; i < 30; i++) await languageModelStep(trainer, SEQUENCES, { microBatchSize: 2 });
    expect(trainer.step).toBe(30);
    const end = await languageModelLoss(trainer, SEQUENCES, 2);
    expect(end).toBeLessThan(start / 2);
  });

  it('refuses sequences with nothing to predict, and a micro-batch size that is not a whole number', async () => {
    const trainer = new RefTrainer(await tinyModel(7), { wrt: 'weights', optimizer: { lr: 1e-3 } });
    await expect(languageModelStep(trainer, [[3, 4], [5]], { microBatchSize: 2 })).rejects.toThrow(/two or more tokens/);
    await expect(languageModelStep(trainer, SEQUENCES, { microBatchSize: 0 })).rejects.toThrow(/whole number/);
    expect(trainer.step).toBe(0);
  });
});

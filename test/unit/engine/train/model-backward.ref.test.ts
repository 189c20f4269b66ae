// The whole model's float64 backward against central differences of the float64 forward (refLogprobs),
// for each architecture's extras (Qwen2 biases, Qwen3 q/k norms, Llama, tied embeddings), LoRA and full weights.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { seededRandom } from '../../../../src/core/random.ts';
import { filesFromDir } from '../../../../src/engine/model/files-node.ts';
import { initLoraAdapter, openModel, type Architecture, type LoraAdapter } from '../../../../src/engine/model/index.ts';
import { loadRefModel, refLogprobs, type RefModel } from '../../../../src/engine/runtime/index.ts';
import { refLogprobGradients } from '../../../../src/engine/train/model-backward.ref.ts';
import { randomTensor } from '../../../support/check-tensor.ts';
import { checkGradient } from '../../../support/finite-difference.ts';
import { REF_TRAINING_MODEL, writeTinyModel } from '../../../support/tiny-model.ts';

const root = await mkdtemp(join(tmpdir(), 'baton-backward-ref-'));
afterAll(() => rm(root, { recursive: true, force: true }));

async function tinyRefModel(architecture: Architecture, tied: boolean): Promise<RefModel> {
  const dir = join(root, `${architecture}-${tied}`);
  await writeTinyModel(dir, { ...REF_TRAINING_MODEL, architecture, seed: 11, tied });
  const { config, tensors } = await openModel(filesFromDir(dir));
  return loadRefModel(tensors, config);
}

/**
 * An adapter on all seven projections with non-zero B (a fresh one has B = 0, which would hide dA), its
 * A and B held in float64 so that finite differences in them are exact to float64.
 */
function float64Adapter(model: RefModel, seed: number): LoraAdapter {
  const random = seededRandom(seed);
  const adapter = initLoraAdapter(
    model.config,
    { r: 2, alpha: 6, targetModules: ['q_proj', 'k_proj', 'v_proj', 'o_proj', 'gate_proj', 'up_proj', 'down_proj'], dropout: 0 },
    random,
  );
  for (const m of adapter.weights.values()) {
    // The reference reads A and B as plain arrays of numbers; float64 keeps the perturbations exact.
    m.A = Float64Array.from(m.A) as unknown as Float32Array;
    m.B = Float64Array.from({ length: m.B.length }, () => 2 * random() - 1) as unknown as Float32Array;
  }
  return adapter;
}

const ids = [3, 17, 5, 29, 11, 8];
const dLogp = Float64Array.from(randomTensor(ids.length - 1, 5, -1, 1));
const temperature = 0.7;
/** The quantity whose gradient is taken: sum_i dLogp[i] * logp[i]. */
const objective = (model: RefModel, lora?: LoraAdapter) =>
  refLogprobs(model, ids, { temperature, ...(lora ? { lora } : {}) }).reduce((s, lp, i) => s + dLogp[i] * lp, 0);

/** A few spread-out indices of an array of n values. */
const sample = (n: number, count = 5) => [...new Set(Array.from({ length: count }, (_, i) => Math.floor(((i + 0.5) * n) / count)))];

describe.each([
  { architecture: 'qwen2' as const, tied: false },
  { architecture: 'qwen3' as const, tied: false },
  { architecture: 'llama' as const, tied: true },
])('refLogprobGradients, $architecture (tied embeddings: $tied)', ({ architecture, tied }) => {
  it('gives the logprobs of the forward reference', async () => {
    const model = await tinyRefModel(architecture, tied);
    const g = refLogprobGradients(model, ids, dLogp, { temperature, wrt: 'weights' });
    const expected = refLogprobs(model, ids, { temperature });
    expect(g.logprobs).toHaveLength(ids.length - 1);
    g.logprobs.forEach((v, i) => expect(v).toBeCloseTo(expected[i], 12));
    expect(g.entropy.every((e) => e > 0 && e <= Math.log(model.config.vocabSize))).toBe(true);
  });

  it('differentiates every LoRA A and B as central differences do', async () => {
    const model = await tinyRefModel(architecture, tied);
    const adapter = float64Adapter(model, 3);
    const g = refLogprobGradients(model, ids, dLogp, { temperature, lora: adapter, wrt: 'lora' });
    expect([...g.lora.keys()].sort()).toEqual([...adapter.weights.keys()].sort());
    for (const [path, m] of adapter.weights) {
      const { dA, dB } = g.lora.get(path)!;
      for (const [name, values, analytic] of [
        ['A', m.A, dA],
        ['B', m.B, dB],
      ] as const) {
        const loss = (p: Float64Array) => {
          const keep = Float64Array.from(values);
          values.set(p);
          const out = objective(model, adapter);
          values.set(keep);
          return out;
        };
        checkGradient(`${path}.lora_${name}`, loss, values, analytic, { indices: sample(values.length) });
      }
    }
  });

  it('differentiates every weight of the model as central differences do (full fine-tuning)', async () => {
    const model = await tinyRefModel(architecture, tied);
    const g = refLogprobGradients(model, ids, dLogp, { temperature, wrt: 'weights' });
    expect([...g.weights.keys()].sort()).toEqual([...model.weights.keys()].sort());
    for (const [name, weight] of model.weights) {
      const loss = (p: Float64Array) => {
        const keep = Float64Array.from(weight);
        weight.set(p);
        const out = objective(model);
        weight.set(keep);
        return out;
      };
      checkGradient(name, loss, weight, g.weights.get(name)!, { indices: sample(weight.length, 4) });
    }
  });
});

it('takes LoRA gradients only with an adapter, and refuses a dLogp of the wrong length', async () => {
  const model = await tinyRefModel('qwen2', false);
  expect(() => refLogprobGradients(model, ids, dLogp, { wrt: 'lora' })).toThrow(/need an adapter/);
  expect(() => refLogprobGradients(model, ids, [1, 2], { wrt: 'weights' })).toThrow(/one dLogp per predicted token/);
});

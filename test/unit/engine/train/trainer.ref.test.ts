// One GRPO step (core/rl's grpoStep) over the float64 reference trainer: its gradient against central
// differences of the whole batch's GRPO loss, micro-batch invariance, AdamW's first move and a skipped
// non-finite step.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { seededRandom } from '../../../../src/core/random.ts';
import { flattenGrpoBatch, groupAdvantages, groupRewards, grpoLoss, grpoStep, type GrpoBatch, type TrainStepOptions } from '../../../../src/core/rl/index.ts';
import { filesFromDir } from '../../../../src/engine/model/files-node.ts';
import { initLoraAdapter, openModel, type LoraAdapter } from '../../../../src/engine/model/index.ts';
import { loadRefModel, refLogprobs, type RefModel } from '../../../../src/engine/runtime/index.ts';
import { RefTrainer } from '../../../../src/engine/train/trainer.ref.ts';
import { checkGradient } from '../../../support/finite-difference.ts';
import { REF_TRAINING_MODEL, writeTinyModel } from '../../../support/tiny-model.ts';

const root = await mkdtemp(join(tmpdir(), 'baton-trainer-ref-'));
afterAll(() => rm(root, { recursive: true, force: true }));

const dir = join(root, 'qwen3');
await writeTinyModel(dir, { ...REF_TRAINING_MODEL, architecture: 'qwen3', seed: 21 });
const opened = await openModel(filesFromDir(dir));
const model: RefModel = await loadRefModel(opened.tensors, opened.config);

/** Non-zero B (a fresh adapter's B = 0 would hide dA), A and B in float64 for exact differences. */
function adapter(seed: number): LoraAdapter {
  const random = seededRandom(seed);
  const a = initLoraAdapter(model.config, { r: 2, alpha: 4, targetModules: ['q_proj', 'v_proj', 'o_proj', 'up_proj', 'down_proj'], dropout: 0 }, random);
  for (const m of a.weights.values()) {
    m.A = Float64Array.from(m.A) as unknown as Float32Array;
    m.B = Float64Array.from({ length: m.B.length }, () => (2 * random() - 1) * 0.5) as unknown as Float32Array;
  }
  return a;
}

/** Two groups sharing their prompts, completions of different lengths, rewards that differ within groups. */
const BATCH: GrpoBatch = {
  groups: [
    {
      promptIds: [3, 9, 14],
      completions: [
        { ids: [5, 7, 2], reward: 1 },
        { ids: [30], reward: 0 },
        { ids: [11, 11, 6, 1], reward: 0.5 },
      ],
    },
    {
      promptIds: [20, 4],
      completions: [
        { ids: [8, 33], reward: 0 },
        { ids: [17, 2, 25], reward: 1 },
      ],
    },
  ],
};

const OPTIONS: TrainStepOptions = {
  grpo: { beta: 0.04, epsilonLow: 0.2, epsilonHigh: 0.28, lossType: 'bnpo', maxCompletionLength: 8 },
  scaleRewards: 'group',
  temperature: 0.9,
  microBatchSize: 2,
};

/** The reference trainer that keeps a copy of the gradient each step applies. */
class Capturing extends RefTrainer {
  captured = new Map<string, Float64Array>();
  override async applyGradients() {
    this.captured = new Map([...this.gradients()].map(([k, g]) => [k, Float64Array.from(g)]));
    return super.applyGradients();
  }
}

/**
 * The whole batch's GRPO loss from the float64 forward, as a function of the weights. Without stored old
 * logprobs the ratio is exp(logp - logp detached), whose value is 1 whatever the weights: so the
 * objective differenced here holds the old logprobs fixed at the weights the step starts from, which
 * has the same value and the same gradient there.
 */
function lossOf(model: RefModel, batch: GrpoBatch, options: TrainStepOptions, lora?: LoraAdapter): () => number {
  const sequences = flattenGrpoBatch(batch);
  const advantages = groupAdvantages(groupRewards(batch), options.scaleRewards).flat();
  const temperature = options.temperature;
  const completion = (s: (typeof sequences)[number], o: { lora?: LoraAdapter } = {}) =>
    refLogprobs(model, s.ids, { temperature, ...o }).slice(s.completionStart - 1);
  const old = sequences.map((s) => s.oldLogprobs ?? completion(s, lora ? { lora } : {}));
  return () =>
    grpoLoss(
      sequences.map((s, i) => ({
        logprobs: completion(s, lora ? { lora } : {}),
        oldLogprobs: old[i],
        advantage: advantages[i],
        ...(options.grpo.beta > 0 ? { refLogprobs: completion(s) } : {}),
      })),
      options.grpo,
    ).loss;
}

/** The objective as a function of one tensor's values, perturbed in place and restored. */
function lossIn(values: Float32Array | Float64Array, loss: () => number): (p: Float64Array) => number {
  return (p) => {
    const keep = Float64Array.from(values);
    values.set(p);
    const out = loss();
    values.set(keep);
    return out;
  };
}

describe('grpoStep over the float64 reference trainer', () => {
  it("applies the gradient of the whole batch's GRPO loss, as central differences give it", async () => {
    const lora = adapter(4);
    const loss = lossOf(model, BATCH, OPTIONS, lora);
    const trainer = new Capturing(model, { wrt: 'lora', lora, optimizer: { lr: 0 } });
    const result = await grpoStep(trainer, BATCH, OPTIONS);
    expect(result.loss).toBeCloseTo(loss(), 12);
    expect(result).toMatchObject({ tokens: 13, step: 1 });
    expect(result.kl).toBeGreaterThan(0);
    expect(result.gradNorm).toBeGreaterThan(0);
    for (const [path, m] of lora.weights) {
      for (const part of ['A', 'B'] as const) {
        const values = m[part];
        const indices = [0, Math.floor(values.length / 2), values.length - 1];
        checkGradient(`${path}.${part}`, lossIn(values, loss), values, trainer.captured.get(`${path}.${part}`)!, { indices });
      }
    }
  });

  it('gives the same loss and gradient whatever the micro-batch size, with old logprobs that clip', async () => {
    // Old logprobs far from the current ones make ratios leave [0.8, 1.28] on both sides.
    const random = seededRandom(8);
    const withOld: GrpoBatch = {
      groups: BATCH.groups.map((g) => ({ ...g, completions: g.completions.map((c) => ({ ...c, oldLogprobs: c.ids.map(() => -3 - 2 * random()) })) })),
    };
    const run = async (microBatchSize: number) => {
      const trainer = new Capturing(model, { wrt: 'lora', lora: adapter(4), optimizer: { lr: 0 } });
      return { result: await grpoStep(trainer, withOld, { ...OPTIONS, microBatchSize }), grads: trainer.captured };
    };
    const [one, all] = [await run(1), await run(16)];
    expect(one.result.clipRatio.regionMean).toBeGreaterThan(0);
    expect(one.result.loss).toBeCloseTo(all.result.loss, 12);
    for (const [name, g] of one.grads) g.forEach((v, i) => expect(v, name).toBeCloseTo(all.grads.get(name)![i], 12));
  });

  it("moves every weight by lr g / (|g| + eps) against its gradient on AdamW's first step", async () => {
    const lora = adapter(5);
    const before = new Map([...lora.weights].map(([p, w]) => [p, Float64Array.from(w.B)]));
    const trainer = new Capturing(model, { wrt: 'lora', lora, optimizer: { lr: 1e-3, maxGradNorm: 0 } });
    const result = await grpoStep(trainer, BATCH, OPTIONS);
    expect(result.lr).toBe(1e-3);
    for (const [path, w] of lora.weights) {
      const g = trainer.captured.get(`${path}.B`)!;
      w.B.forEach((b, i) => {
        // After one step the bias-corrected moments are g and g^2, so the update is lr g / (|g| + eps).
        expect(b - before.get(path)![i]).toBeCloseTo((-1e-3 * g[i]) / (Math.abs(g[i]) + 1e-8), 10);
      });
    }
  });

  it('trains every weight of the model (full fine-tuning) along the same gradient', async () => {
    const weights = new Map([...model.weights].map(([k, v]) => [k, Float64Array.from(v)]));
    const full: RefModel = { ...model, weights };
    const options = { ...OPTIONS, grpo: { ...OPTIONS.grpo, beta: 0 } };
    const loss = lossOf(full, BATCH, options);
    const trainer = new Capturing(full, { wrt: 'weights', optimizer: { lr: 0 } });
    const result = await grpoStep(trainer, BATCH, options);
    expect(trainer.captured.size).toBe(weights.size);
    expect(result.loss).toBeCloseTo(loss(), 12);
    const spread = (n: number) => [0, Math.floor(n / 3), n - 1];
    const C = model.config.hiddenSize;
    // Embedding rows of tokens in the batch (others get no gradient), and spread entries elsewhere.
    const checks: [string, number[]][] = [
      ['model.embed_tokens.weight', [3 * C, 20 * C + 5, 33 * C + C - 1]],
      ['model.layers.0.self_attn.k_norm.weight', spread(weights.get('model.layers.0.self_attn.k_norm.weight')!.length)],
      ['model.layers.1.mlp.down_proj.weight', spread(weights.get('model.layers.1.mlp.down_proj.weight')!.length)],
      ['lm_head.weight', spread(weights.get('lm_head.weight')!.length)],
    ];
    for (const [name, indices] of checks) {
      const values = weights.get(name)!;
      checkGradient(name, lossIn(values, loss), values, trainer.captured.get(name)!, { indices });
    }
  });

  it('skips a step whose gradient is not finite, changing nothing, and goes on', async () => {
    const lora = adapter(6);
    const trainer = new RefTrainer(model, { wrt: 'lora', lora, optimizer: { lr: 1e-3 } });
    const first = lora.weights.values().next().value!;
    first.A[0] = Number.NaN;
    const snapshot = () => [...lora.weights.values()].flatMap((w) => [...w.A, ...w.B]);
    const before = snapshot();
    const result = await grpoStep(trainer, BATCH, { ...OPTIONS, grpo: { ...OPTIONS.grpo, beta: 0 } });
    expect(result.skipped).toMatch(/NaN or infinite/);
    expect(result.step).toBe(0);
    expect(snapshot()).toEqual(before);
    first.A[0] = 0.1;
    const next = await grpoStep(trainer, BATCH, { ...OPTIONS, grpo: { ...OPTIONS.grpo, beta: 0 } });
    expect(next).toMatchObject({ step: 1 });
    expect(next.skipped).toBeUndefined();
  });
});

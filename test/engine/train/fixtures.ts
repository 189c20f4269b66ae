/**
 * Tiny models and adapters for the GPU trainer's tests: a GpuModel beside the float64 RefModel of the
 * same weights (the int4 round trip of them for an int4 base), adapters on all seven projections with
 * non-zero B (a fresh adapter's B = 0 would hide dA) as float32 for the GPU and float64 for the
 * reference, and sequences of different lengths.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { seededRandom } from '../../../src/core/random.ts';
import type { GrpoBatch, ScoredSequence } from '../../../src/core/rl/index.ts';
import type { EngineDevice } from '../../../src/engine/device/index.ts';
import { filesFromDir } from '../../../src/engine/model/files-node.ts';
import { initLoraAdapter, openModel, type Architecture, type LoraAdapter } from '../../../src/engine/model/index.ts';
import { GpuModel, loadRefModel, type RefModel, type WeightFormat } from '../../../src/engine/runtime/index.ts';
import { GpuTrainer, GradientCapture, RefTrainer, type GpuTrainerOptions } from '../../../src/engine/train/index.ts';
import { int4TensorNames, roundTripped } from '../quant/round-tripped-model.ts';
import { writeTinyModel } from '../../support/tiny-model.ts';

export const ALL_PROJECTIONS = ['q_proj', 'k_proj', 'v_proj', 'o_proj', 'gate_proj', 'up_proj', 'down_proj'];

export interface TinyPair {
  gpu: GpuModel;
  ref: RefModel;
  cleanup(): Promise<void>;
}

/** hidden 8 (32 for int4, whose groups are 32 wide), 2 layers, vocab 48. */
export async function tinyPair(
  device: EngineDevice,
  architecture: Architecture,
  weights: WeightFormat,
  options: { tied?: boolean; maxBindingBytes?: number } = {},
): Promise<TinyPair> {
  const root = await mkdtemp(join(tmpdir(), 'baton-train-'));
  const int4 = weights === 'int4';
  const hidden = int4 ? 32 : 8;
  await writeTinyModel(root, {
    architecture,
    dtype: 'F32',
    seed: 17,
    hidden,
    heads: 2,
    kvHeads: 1,
    layers: 2,
    intermediate: int4 ? 64 : 12,
    vocab: 48,
    tokenizer: 'none',
    tied: options.tied ?? false,
  });
  const opened = await openModel(filesFromDir(root));
  const gpu = await GpuModel.load(device, opened, {
    weights,
    int4Head: false,
    ...(options.maxBindingBytes ? { maxBindingBytes: options.maxBindingBytes } : {}),
  });
  const exact = await loadRefModel(opened.tensors, opened.config);
  const ref = int4 ? roundTripped(exact, int4TensorNames(exact, false)) : exact;
  const cleanup = async () => {
    gpu.destroy();
    await rm(root, { recursive: true, force: true });
  };
  return { gpu, ref, cleanup };
}

/** An adapter with non-zero B, and a float64 copy of it for the reference. */
export function adapterPair(ref: RefModel, seed: number, targetModules = ALL_PROJECTIONS): { gpu: LoraAdapter; ref: LoraAdapter } {
  const random = seededRandom(seed);
  const gpu = initLoraAdapter(ref.config, { r: 2, alpha: 6, targetModules, dropout: 0 }, random);
  for (const m of gpu.weights.values()) m.B = Float32Array.from({ length: m.B.length }, () => (2 * random() - 1) * 0.5);
  return { gpu, ref: float64Copy(gpu) };
}

export function float64Copy(a: LoraAdapter): LoraAdapter {
  const weights = new Map(
    [...a.weights].map(([p, m]) => [p, { ...m, A: Float64Array.from(m.A) as unknown as Float32Array, B: Float64Array.from(m.B) as unknown as Float32Array }]),
  );
  return { config: { ...a.config }, weights };
}

/** Three sequences of lengths 6, 4 and 7 with completions of 3, 2 and 3 tokens. */
export const SEQUENCES: ScoredSequence[] = [
  { ids: [3, 9, 14, 5, 7, 2], completionStart: 3 },
  { ids: [20, 4, 8, 33], completionStart: 2 },
  { ids: [1, 40, 12, 6, 30, 11, 47], completionStart: 4 },
];

/**
 * A micro-batch that shares a prompt: three completions of 3, 1 and 2 tokens after [3, 9, 14, 5], with
 * a sequence of another prompt among them.
 */
export const GROUPED: ScoredSequence[] = [
  { ids: [3, 9, 14, 5, 7, 2, 40], completionStart: 4 },
  { ids: [3, 9, 14, 5, 30], completionStart: 4 },
  { ids: [20, 4, 8, 33], completionStart: 2 },
  { ids: [3, 9, 14, 5, 11, 6], completionStart: 4 },
];

/** A seeded dLogp per completion token. */
export function randomDLogp(sequences: readonly ScoredSequence[], seed: number): Float64Array[] {
  const random = seededRandom(seed);
  return sequences.map((s) => Float64Array.from({ length: s.ids.length - s.completionStart }, () => 2 * random() - 1));
}

/** Two groups sharing their prompts, completions of different lengths, rewards that differ within groups. */
export const BATCH: GrpoBatch = {
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

/** BATCH with old logprobs far from the current ones: ratios leave [1 - eps, 1 + eps_high] on both sides. */
export function withOldLogprobs(batch: GrpoBatch, seed: number): GrpoBatch {
  const random = seededRandom(seed);
  return { groups: batch.groups.map((g) => ({ ...g, completions: g.completions.map((c) => ({ ...c, oldLogprobs: c.ids.map(() => -3 - 2 * random()) })) })) };
}

/** A GPU trainer that keeps a copy of the gradient each step applies. */
export class CapturingGpu extends GradientCapture {
  static async create(model: GpuModel, options: GpuTrainerOptions): Promise<CapturingGpu> {
    return new CapturingGpu(await GpuTrainer.create(model, options));
  }
}

/** The reference trainer that keeps a copy of the gradient each step applies, under the GPU trainer's names. */
export class CapturingRef extends RefTrainer {
  captured = new Map<string, Float64Array>();
  override async applyGradients() {
    this.captured = new Map([...this.gradients()].map(([k, g]) => [k.replace(/\.([AB])$/, '.lora_$1'), Float64Array.from(g)]));
    return super.applyGradients();
  }
}

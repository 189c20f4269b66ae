/**
 * GRPO training speed and memory on this machine's WebGPU adapter (SwiftShader when there is no GPU):
 * for each model shape (bench/model-shapes.ts) and base weight format, one group of G completions of
 * C tokens after a P-token prompt, LoRA r on all seven projections, timed as
 *   forward   GpuTrainer.forward: logprobs and entropy of every completion token (what scoring costs)
 *   step      forward + backward (activation checkpointing: each layer recomputed) + AdamW
 * and reported as tokens/s (all G (P + C) tokens), the ratio step / forward (the goal: at most 3), the
 * engine's peak GPU bytes and the trainer's own estimate of them.
 * Run: npm run bench:train -- [--models tiny,qwen0.5b,qwen1.5b] [--formats f32,int4] [--group 8]
 *        [--prompt 512] [--completion 256] [--micro G] [--r 16] [--trials 2]
 * Shapes beyond tiny take hours on SwiftShader: on a software adapter they are skipped unless
 * --models names them. Prints one JSON line. Compare figures as ratios on one adapter.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { seededRandom } from '../src/core/random.ts';
import type { ScoredSequence } from '../src/core/rl/index.ts';
import { GpuModel, type WeightFormat } from '../src/engine/index.ts';
import { filesFromDir } from '../src/engine/model/files-node.ts';
import { initLoraAdapter, openModel } from '../src/engine/model/index.ts';
import { estimateTrainingMemory, GpuTrainer } from '../src/engine/train/index.ts';
import { createNodeGpu } from '../src/node/models/index.ts';
import { writeTinyModel } from '../test/support/tiny-model.ts';
import { MODEL_SHAPES } from './model-shapes.ts';

const { values } = parseArgs({
  options: {
    models: { type: 'string' },
    formats: { type: 'string', default: 'f32,int4' },
    group: { type: 'string', default: '8' },
    prompt: { type: 'string', default: '512' },
    completion: { type: 'string', default: '256' },
    micro: { type: 'string' },
    r: { type: 'string', default: '16' },
    trials: { type: 'string', default: '2' },
  },
});
const G = Number(values.group);
const P = Number(values.prompt);
const C = Number(values.completion);
const MICRO = Number(values.micro ?? G);
const R = Number(values.r);
const TRIALS = Number(values.trials);
const PROJECTIONS = ['q_proj', 'k_proj', 'v_proj', 'o_proj', 'gate_proj', 'up_proj', 'down_proj'];

const gpu = await createNodeGpu();
const device = gpu.device;
const software = device.caps.software;
const models = (values.models ?? (software ? 'tiny' : 'tiny,qwen0.5b,qwen1.5b')).split(',');
const tmp = await mkdtemp(join(tmpdir(), 'baton-bench-train-'));
const results: unknown[] = [];

/** Best (smallest) of TRIALS runs of `run`, in milliseconds. */
async function best(run: () => Promise<void>): Promise<number> {
  let ms = Infinity;
  for (let t = 0; t < TRIALS; t++) {
    const start = performance.now();
    await run();
    ms = Math.min(ms, performance.now() - start);
  }
  return ms;
}

try {
  for (const name of models) {
    const shape = MODEL_SHAPES[name];
    if (!shape) throw new Error(`unknown model shape ${name}: one of ${Object.keys(MODEL_SHAPES).join(', ')}`);
    const dir = (await writeTinyModel(join(tmp, name), { ...shape, seed: 1 })).dir;
    const opened = await openModel(filesFromDir(dir));
    const V = opened.config.vocabSize;
    const random = seededRandom(7);
    const prompt = Array.from({ length: P }, () => Math.floor(random() * V));
    const sequences: ScoredSequence[] = Array.from({ length: G }, () => ({
      ids: [...prompt, ...Array.from({ length: C }, () => Math.floor(random() * V))],
      completionStart: P,
    }));
    const dLogp = sequences.map(() => Float64Array.from({ length: C }, () => (random() - 0.5) / (G * C)));
    for (const format of values.formats!.split(',') as WeightFormat[]) {
      if (format === 'f16' && !device.caps.shaderF16) continue;
      device.memory.resetPeak();
      const model = await GpuModel.load(device, opened, { weights: format });
      const lora = initLoraAdapter(opened.config, { r: R, alpha: 2 * R, targetModules: PROJECTIONS, dropout: 0 }, random);
      const limits = { microBatchSequences: MICRO, maxSequenceLength: P + C, maxCompletionLength: C };
      const trainer = await GpuTrainer.create(model, { wrt: 'lora', lora, optimizer: { lr: 1e-6 }, limits });
      const forward = async () => {
        for (let i = 0; i < G; i += MICRO) await trainer.forward(sequences.slice(i, i + MICRO), 1);
      };
      const step = async () => {
        for (let i = 0; i < G; i += MICRO) {
          await trainer.forward(sequences.slice(i, i + MICRO), 1);
          await trainer.backward(dLogp.slice(i, i + MICRO));
        }
        await trainer.applyGradients();
      };
      const forwardMs = await best(forward);
      const stepMs = await best(step);
      const tokens = G * (P + C);
      const estimate = estimateTrainingMemory(opened.config, {
        weights: model.weights.format,
        floatDtype: model.weights.dtype,
        int4Head: model.weights.lmHead.int4 !== undefined,
        train: { r: R, targetModules: PROJECTIONS },
        ...limits,
        maxBindingBytes: model.maxBindingBytes,
      });
      results.push({
        model: name,
        format,
        group: G,
        promptTokens: P,
        completionTokens: C,
        microBatch: MICRO,
        loraR: R,
        forwardTokensPerS: Math.round((tokens / forwardMs) * 1000 * 10) / 10,
        stepTokensPerS: Math.round((tokens / stepMs) * 1000 * 10) / 10,
        stepOverForward: Math.round((stepMs / forwardMs) * 100) / 100,
        forwardMs: Math.round(forwardMs),
        stepMs: Math.round(stepMs),
        peakGpuBytes: device.memory.peak,
        estimatedBytes: estimate.total,
      });
      trainer.destroy();
      model.destroy();
    }
  }
  const info = device.caps.adapter;
  console.log(JSON.stringify({ bench: 'train', adapter: { vendor: info.vendor, architecture: info.architecture, software }, results }));
} finally {
  gpu.close();
  await rm(tmp, { recursive: true, force: true });
}

/**
 * Engine prefill and decode speed, and GPU memory, on this machine's WebGPU adapter (SwiftShader when
 * there is no GPU), for each model and weight format asked for:
 *   tiny       the tiny random Qwen2 of the tests (64 wide, 2 layers, 256-token vocabulary)
 *   tiny-151k  the same with Qwen2's 151,936-token vocabulary (where the LM head and sampling dominate)
 *   qwen0.5b   random weights in Qwen2.5-0.5B's shape (896 wide, 24 layers, 14/2 heads, MLP 4864,
 *              151,936-token tied vocabulary), written as BF16 safetensors to a temp dir
 *   DIR        any model directory
 * Run: npx tsx bench/engine.ts [--models tiny,qwen0.5b] [--formats f32,f16,int4] [--prompt-tokens P]
 *        [--decode-tokens N] [--group G,G..] [--trials K] [--lanes 1,32] [--top-k K] [--top-p P] [--gpu-sampling]
 * Run under `node --expose-gc` (tsx passes it on) for steadier decode figures: the bench then
 * collects the load's garbage before timing. Formats the adapter lacks (f16 without shader-f16) are skipped. --lanes compares matmul layouts
 * (threads per output column, kernels/matmul.ts); by default each adapter gets its own.
 * --top-k and --top-p truncate the sampling of the temperature-1 generate figure (and of the dispatch count);
 * --gpu-sampling samples on the GPU where the adapter's default would not (SwiftShader).
 * --profile adds the GPU time of each kernel over one decode step (timestamp queries; where the
 * adapter has them), to set against decodeMsPerToken: the rest is CPU work and synchronisation.
 * Prints one JSON line: the adapter, then per model and format: weight bytes, the bytes one decode
 * step reads (weights it touches + the KV cache at the last step), prefill and decode tokens/s
 * (best of K; a decode step here reads its logits back), the kernel dispatches one decode step of
 * generate encodes (sampling included), decode tokens/s of generate at temperature 1 (batch 1,
 * sampling as rollouts do), decode tokens/s of a group of G decoded as one batch for each G of --group (e.g. 8,16,64), and the peak bytes held in the
 * engine's GPU buffers. Compare figures as ratios on one adapter, never across machines. `machine` gives the
 * CPU count and the 1-minute load average before and after: on SwiftShader the adapter is those CPUs, shared
 * with whatever else runs.
 * On 2 CPU cores with SwiftShader, qwen0.5b takes about 8 minutes with
 * --prompt-tokens 8 --decode-tokens 4 --trials 1 (most of it decoding f32 at ~9 s a token).
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { availableParallelism, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { KernelProfiler, type KernelTime } from '../src/engine/device/index.ts';
import { GpuModel, type WeightFormat } from '../src/engine/index.ts';
import { filesFromDir } from '../src/engine/model/files-node.ts';
import { openModel, type OpenedModel } from '../src/engine/model/index.ts';
import { dispatchesPerDecodeStep, type ModelWeights } from '../src/engine/runtime/index.ts';
import { createNodeGpu, type NodeGpu } from '../src/node/models/index.ts';
import { writeTinyModel } from '../test/support/tiny-model.ts';
import { MODEL_SHAPES } from './model-shapes.ts';

const { values } = parseArgs({
  options: {
    models: { type: 'string', default: 'tiny,qwen0.5b' },
    formats: { type: 'string', default: 'f32,f16,int4' },
    lanes: { type: 'string' },
    profile: { type: 'boolean', default: false },
    'prompt-tokens': { type: 'string', default: '16' },
    'decode-tokens': { type: 'string', default: '8' },
    group: { type: 'string', default: '4' },
    trials: { type: 'string', default: '2' },
    'top-k': { type: 'string', default: '0' },
    'top-p': { type: 'string', default: '1' },
    'gpu-sampling': { type: 'boolean', default: false },
  },
});
const P = Number(values['prompt-tokens']);
const N = Number(values['decode-tokens']);
/** Group sizes measured, each decoded as one batch (e.g. 8,16,64). */
const GROUPS = values.group.split(',').map(Number);
const TRIALS = Number(values.trials);
/** The temperature-1 sampling of generate, as GRPO's rollouts sample. */
const TRUNCATION = { topK: Number(values['top-k']), topP: Number(values['top-p']) };

const SHAPES = MODEL_SHAPES;

/** Bytes a decode step reads: every weight except the embedding (one row of it), plus the keys and values of `tokens` positions. */
function decodeStepBytes(model: GpuModel, tokens: number): { weights: number; kv: number } {
  const w: ModelWeights = model.weights;
  const c = model.config;
  const tensors = new Set([w.norm, w.lmHead, ...w.layers.flatMap((l) => Object.values(l).filter((t) => t !== undefined))]);
  let weights = w.embed.chunks[0].buffer.size / w.embed.chunks[0].rows; // one embedding row
  for (const t of tensors) for (const ch of t.chunks) weights += ch.buffer.size + (ch.scales?.size ?? 0);
  const kv = tokens * c.numLayers * 2 * c.numKvHeads * c.headDim * 4;
  return { weights, kv };
}

async function measure(gpu: NodeGpu, opened: OpenedModel, format: WeightFormat, lanes: number | undefined) {
  const device = gpu.device;
  const before = device.memory.current;
  device.memory.resetPeak();
  const loadStart = performance.now();
  const model = await GpuModel.load(device, opened, {
    weights: format,
    ...(lanes ? { matmulLanes: lanes } : {}),
    ...(values['gpu-sampling'] ? { gpuSampling: true } : {}),
  });
  const loadS = (performance.now() - loadStart) / 1000;
  try {
    const V = opened.config.vocabSize;
    const prompt = Array.from({ length: P }, (_, i) => (i * 7919 + 13) % V);
    await model.generateGroup(prompt.slice(0, 4), { n: 2, maxNewTokens: 2, stopTokens: [] }); // compile pipelines
    // Loading leaves hundreds of MB of host garbage (conversion, quantisation): collect it now, not mid-timing.
    (globalThis as { gc?: () => void }).gc?.();
    let prefillMs = Infinity;
    let decodeMs = Infinity;
    const groupPrefillMs = GROUPS.map(() => Infinity);
    const groupMs = GROUPS.map(() => Infinity);
    let generatePrefillMs = Infinity;
    let generateMs = Infinity;
    for (let trial = 0; trial < TRIALS; trial++) {
      const cache = model.createKvCache(P + N);
      let t = performance.now();
      await model.forward(prompt, { cache, lastOnly: true });
      prefillMs = Math.min(prefillMs, performance.now() - t);
      t = performance.now();
      for (let i = 0; i < N; i++) await model.forward([prompt[i % P]], { cache, lastOnly: true });
      decodeMs = Math.min(decodeMs, performance.now() - t);
      cache.destroy();
      // Greedy, so CPU sampling stays cheap. One new token costs the prefill alone; N more cost N batched steps.
      for (const [g, n] of GROUPS.entries()) {
        t = performance.now();
        await model.generateGroup(prompt, { n, maxNewTokens: 1, stopTokens: [] });
        groupPrefillMs[g] = Math.min(groupPrefillMs[g], performance.now() - t);
        t = performance.now();
        await model.generateGroup(prompt, { n, maxNewTokens: N + 1, stopTokens: [] });
        groupMs[g] = Math.min(groupMs[g], performance.now() - t);
      }
      // generate at temperature 1, as GRPO's rollouts sample (on the GPU where the engine does).
      const sampled = { stopTokens: [], sampling: { temperature: 1, ...TRUNCATION, seed: trial } };
      t = performance.now();
      await model.generate(prompt, { maxNewTokens: 1, ...sampled });
      generatePrefillMs = Math.min(generatePrefillMs, performance.now() - t);
      t = performance.now();
      await model.generate(prompt, { maxNewTokens: N + 1, ...sampled });
      generateMs = Math.min(generateMs, performance.now() - t);
    }
    generateMs -= generatePrefillMs;
    const decodeDispatches = await dispatchesPerDecodeStep(model, prompt, { temperature: 1, ...TRUNCATION });
    const kernels = values.profile && device.caps.timestampQuery ? await profileDecode(model, prompt) : undefined;
    const step = decodeStepBytes(model, P + N);
    return {
      format,
      lanes: lanes ?? 'default',
      weightBytes: model.weights.bytes,
      decodeStepReadBytes: { weights: Math.round(step.weights), kv: step.kv },
      loadS: round(loadS),
      prefillTokensPerS: round((P * 1000) / prefillMs),
      decodeTokensPerS: round((N * 1000) / decodeMs),
      decodeMsPerToken: round(decodeMs / N),
      dispatchesPerDecodeStep: decodeDispatches,
      generateDecodeTokensPerS: round((N * 1000) / generateMs),
      /** By group size: all G completions' decoded tokens per second, the shared prefill left out. */
      groupDecodeTokensPerS: Object.fromEntries(GROUPS.map((n, g) => [n, round((n * N * 1000) / (groupMs[g] - groupPrefillMs[g]))])),
      peakGpuBytes: device.memory.peak - before,
      ...(kernels ? { decodeStepGpuMs: round(kernels.reduce((a, k) => a + k.ms, 0)), kernels } : {}),
    };
  } finally {
    model.destroy();
  }
}

/** GPU time per kernel over one decode step, averaged over N steps. */
async function profileDecode(model: GpuModel, prompt: number[]): Promise<KernelTime[]> {
  const cache = model.createKvCache(P + N);
  await model.forward(prompt, { cache, lastOnly: true });
  const profiler = new KernelProfiler();
  model.device.profiler = profiler;
  try {
    for (let i = 0; i < N; i++) await model.forward([prompt[i % P]], { cache, lastOnly: true });
  } finally {
    model.device.profiler = undefined;
    cache.destroy();
  }
  return profiler.report().map((k) => ({ name: k.name, ms: round(k.ms / N), count: k.count / N }));
}

function round(x: number): number {
  return Number(x.toPrecision(4));
}

const loadBefore = loadavg()[0];
const tmp = await mkdtemp(join(tmpdir(), 'baton-bench-'));
const gpu = await createNodeGpu();
try {
  const results = [];
  for (const name of values.models!.split(',')) {
    const shape = SHAPES[name];
    const dir = shape ? (await writeTinyModel(join(tmp, name), { ...shape, seed: 1 })).dir : name;
    const opened = await openModel(filesFromDir(dir));
    const c = opened.config;
    for (const format of values.formats!.split(',') as WeightFormat[]) {
      if (format === 'f16' && !gpu.device.caps.shaderF16) continue;
      for (const lanes of values.lanes?.split(',').map(Number) ?? [undefined]) {
        results.push({
          model: name,
          shape: {
            hidden: c.hiddenSize,
            layers: c.numLayers,
            heads: c.numHeads,
            kvHeads: c.numKvHeads,
            intermediate: c.intermediateSize,
            vocab: c.vocabSize,
            tied: c.tieWordEmbeddings,
          },
          ...(await measure(gpu, opened, format, lanes)),
        });
      }
    }
    if (shape) await rm(dir, { recursive: true, force: true });
  }
  const caps = gpu.device.caps;
  console.log(
    JSON.stringify({
      bench: 'engine',
      adapter: { kind: gpu.kind, ...caps.adapter, shaderF16: caps.shaderF16, maxStorageBufferBindingSize: caps.maxStorageBufferBindingSize },
      machine: { cpus: availableParallelism(), loadAverage: { before: loadBefore, after: loadavg()[0] } },
      promptTokens: P,
      decodeTokens: N,
      groups: GROUPS,
      trials: TRIALS,
      sampling: { temperature: 1, ...TRUNCATION, gpu: values['gpu-sampling'] || !caps.software },
      results,
    }),
  );
} finally {
  gpu.close();
  await rm(tmp, { recursive: true, force: true });
}

/**
 * Engine prefill and decode speed on this machine's WebGPU adapter (SwiftShader when there is no GPU).
 * Run: npx tsx bench/engine.ts [--model DIR] [--prompt-tokens P] [--decode-tokens N] [--weights f32|f16]
 * Without --model it writes a tiny random Qwen2 (64 wide, 2 layers, 256-token vocabulary) to a temp dir.
 * Prints one JSON line: adapter, model shape, weight bytes, prefill and decode tokens/s (best of 3).
 * Compare figures as ratios on the same adapter, never as absolute times across machines.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { GpuModel, type Dtype } from '../src/engine/index.ts';
import { filesFromDir } from '../src/engine/model/files-node.ts';
import { openModel } from '../src/engine/model/index.ts';
import { createNodeGpu } from '../src/node/webgpu.ts';
import { writeTinyModel } from '../test/support/tiny-model.ts';

const TRIALS = 3;

const { values } = parseArgs({
  options: {
    model: { type: 'string' },
    'prompt-tokens': { type: 'string', default: '32' },
    'decode-tokens': { type: 'string', default: '16' },
    weights: { type: 'string' },
  },
});
const P = Number(values['prompt-tokens']);
const N = Number(values['decode-tokens']);

const tmp = values.model ? undefined : await mkdtemp(join(tmpdir(), 'baton-bench-'));
const dir = values.model ?? (await writeTinyModel(tmp!, { architecture: 'qwen2', dtype: 'F32', seed: 1, vocab: 256 })).dir;
const gpu = await createNodeGpu();
try {
  const opened = await openModel(filesFromDir(dir));
  const model = await GpuModel.load(gpu.device, opened, values.weights ? { weights: values.weights as Dtype } : {});
  const V = opened.config.vocabSize;
  const prompt = Array.from({ length: P }, (_, i) => (i * 7919 + 13) % V);
  await model.generate(prompt.slice(0, 8), { maxNewTokens: 2, stopTokens: [] }); // compile pipelines

  let prefillMs = Infinity;
  let decodeMs = Infinity;
  for (let trial = 0; trial < TRIALS; trial++) {
    const cache = model.createKvCache(P + N);
    let t = performance.now();
    await model.forward(prompt, { cache, lastOnly: true });
    prefillMs = Math.min(prefillMs, performance.now() - t);
    t = performance.now();
    for (let i = 0; i < N; i++) await model.forward([prompt[i % P]], { cache, lastOnly: true });
    decodeMs = Math.min(decodeMs, performance.now() - t);
    cache.destroy();
  }
  const c = opened.config;
  const caps = gpu.device.caps;
  console.log(
    JSON.stringify({
      bench: 'engine',
      adapter: { kind: gpu.kind, ...caps.adapter, shaderF16: caps.shaderF16, maxStorageBufferBindingSize: caps.maxStorageBufferBindingSize },
      model: { dir: values.model ?? 'tiny-random-qwen2', architecture: c.architecture, hidden: c.hiddenSize, layers: c.numLayers, vocab: V },
      weights: { dtype: model.weights.dtype, bytes: model.weights.bytes },
      promptTokens: P,
      decodeTokens: N,
      prefillTokensPerS: Number(((P * 1000) / prefillMs).toFixed(2)),
      decodeTokensPerS: Number(((N * 1000) / decodeMs).toFixed(2)),
      decodeMsPerToken: Number((decodeMs / N).toFixed(2)),
    }),
  );
  model.destroy();
} finally {
  gpu.close();
  if (tmp) await rm(tmp, { recursive: true, force: true });
}

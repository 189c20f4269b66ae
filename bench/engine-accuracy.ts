/**
 * How closely the engine on this machine's WebGPU adapter follows the float64 reference forward
 * (src/engine/runtime/forward.ref.ts), per architecture, weight format and matmul layout. The reference holds
 * the weights exactly as the GPU stores them (f16-rounded, int4 read back), so every format must
 * agree to f32 rounding: this is how f16 and the GPU layouts get checked on a real GPU, which the
 * test suite (SwiftShader: no shader-f16) cannot do.
 * Run: npx tsx bench/engine-accuracy.ts [--formats f32,f16,int4] [--lanes 1,32]
 * Formats the adapter lacks are skipped; lanes default to both layouts. Prints one JSON line with
 * the worst absolute error of each check and whether it passed, and exits 1 when any check failed.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { filesFromDir } from '../src/engine/model/files-node.ts';
import { openModel } from '../src/engine/model/index.ts';
import {
  createRefKvCache,
  loadRefModel,
  refForward,
  refLogprobs,
  type RefModel,
  GpuModel,
  streamSeed,
  type WeightFormat,
} from '../src/engine/runtime/index.ts';
import { createNodeGpu } from '../src/node/models/index.ts';
import { storedWeightsRef } from '../test/support/stored-weights-ref.ts';
import { writeTinyModel, type TinyModelOptions } from '../test/support/tiny-model.ts';

const { values } = parseArgs({ options: { formats: { type: 'string', default: 'f32,f16,int4' }, lanes: { type: 'string', default: '1,32' } } });

// Wider than the tests' models so the LM head and MLP span many workgroups; vocab not a multiple of 64.
const MODELS: Record<string, Omit<TinyModelOptions, 'seed'>> = {
  qwen2: { architecture: 'qwen2', dtype: 'BF16', hidden: 128, heads: 4, kvHeads: 2, intermediate: 352, vocab: 1000, tokenizer: 'none' },
  qwen3: { architecture: 'qwen3', dtype: 'BF16', hidden: 128, heads: 4, kvHeads: 1, headDim: 64, intermediate: 320, vocab: 1000, tokenizer: 'none' },
  llama: {
    architecture: 'llama',
    dtype: 'F32',
    tied: true,
    hidden: 128,
    heads: 8,
    kvHeads: 2,
    intermediate: 384,
    vocab: 1000,
    ropeScaling: { type: 'llama3', factor: 8, lowFreqFactor: 1, highFreqFactor: 4, originalMaxPositionEmbeddings: 32 },
    tokenizer: 'none',
  },
};
const TOLERANCE = { abs: 1e-4, rel: 1e-3 };
const PROMPT = [17, 3, 250, 999, 42, 7, 128, 500, 61];

/** Worst |gpu - ref| and whether every element is within TOLERANCE. */
function compare(gpu: ArrayLike<number>, ref: ArrayLike<number>): { worst: number; ok: boolean } {
  let worst = 0;
  let ok = gpu.length === ref.length;
  for (let i = 0; i < ref.length; i++) {
    const err = Math.abs(gpu[i] - ref[i]);
    if (!(err <= worst)) worst = err;
    if (!(err <= TOLERANCE.abs + Math.abs(ref[i]) * TOLERANCE.rel)) ok = false;
  }
  return { worst: Number(worst.toPrecision(3)), ok };
}

function argmaxLast(logits: Float64Array, V: number): number {
  const row = logits.subarray(logits.length - V);
  let best = 0;
  for (let v = 1; v < V; v++) if (row[v] > row[best]) best = v;
  return best;
}

async function check(model: GpuModel, ref: RefModel) {
  const V = ref.config.vocabSize;
  const prefill = compare(await model.forward(PROMPT), refForward(ref, PROMPT));

  const cache = model.createKvCache(2);
  const refCache = createRefKvCache(ref.config);
  const decodeLogits: number[] = [];
  const decodeRef: number[] = [];
  decodeLogits.push(...(await model.forward(PROMPT.slice(0, 4), { cache })));
  decodeRef.push(...refForward(ref, PROMPT.slice(0, 4), { kv: refCache }));
  for (const id of PROMPT.slice(4)) {
    decodeLogits.push(...(await model.forward([id], { cache })));
    decodeRef.push(...refForward(ref, [id], { kv: refCache }));
  }
  cache.destroy();
  const decode = compare(decodeLogits, decodeRef);

  const logprobs = compare(await model.logprobs(PROMPT, { temperature: 0.7 }), refLogprobs(ref, PROMPT, { temperature: 0.7 }));

  const chain: number[] = [];
  const ids = [...PROMPT];
  for (let i = 0; i < 6; i++) {
    chain.push(argmaxLast(refForward(ref, ids), V));
    ids.push(chain[i]);
  }
  const greedy = (await model.generate(PROMPT, { maxNewTokens: 6, stopTokens: [] })).tokens;

  const sampling = { temperature: 0.9, topP: 0.95, seed: 5 };
  const group = await model.generateGroup(PROMPT, { n: 3, maxNewTokens: 6, stopTokens: [], sampling });
  const separate: number[][] = [];
  for (let i = 0; i < 3; i++)
    separate.push((await model.generate(PROMPT, { maxNewTokens: 6, stopTokens: [], sampling: { ...sampling, seed: streamSeed(5, i) } })).tokens);
  return {
    prefill,
    decode,
    logprobs,
    greedyChainEqual: greedy.join() === chain.join(),
    groupEqualsSeparateRuns: group.every((g, i) => g.tokens.join() === separate[i].join()),
  };
}

const tmp = await mkdtemp(join(tmpdir(), 'baton-accuracy-'));
const gpu = await createNodeGpu();
try {
  const results = [];
  for (const [name, shape] of Object.entries(MODELS)) {
    const { dir } = await writeTinyModel(join(tmp, name), { ...shape, seed: 3 });
    const opened = await openModel(filesFromDir(dir));
    const ref = await loadRefModel(opened.tensors, opened.config);
    for (const format of values.formats!.split(',') as WeightFormat[]) {
      if (format === 'f16' && !gpu.device.caps.shaderF16) continue;
      for (const lanes of values.lanes!.split(',').map(Number)) {
        const model = await GpuModel.load(gpu.device, opened, { weights: format, matmulLanes: lanes });
        try {
          results.push({
            model: name,
            format,
            scales: format === 'int4' ? model.weights.dtype : undefined,
            lanes,
            ...(await check(model, storedWeightsRef(ref, model.weights))),
          });
        } finally {
          model.destroy();
        }
      }
    }
  }
  const passed = results.every((r) => r.prefill.ok && r.decode.ok && r.logprobs.ok && r.greedyChainEqual && r.groupEqualsSeparateRuns);
  const caps = gpu.device.caps;
  console.log(
    JSON.stringify({
      bench: 'engine-accuracy',
      adapter: { kind: gpu.kind, ...caps.adapter, shaderF16: caps.shaderF16 },
      tolerance: TOLERANCE,
      passed,
      results,
    }),
  );
  if (!passed) process.exitCode = 1;
} finally {
  gpu.close();
  await rm(tmp, { recursive: true, force: true });
}

import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { Architecture } from '../../../../src/engine/model/config.ts';
import { filesFromDir } from '../../../../src/engine/model/files-node.ts';
import { createRefKvCache, loadRefModel, refForward, refLogprobs, type RefModel } from '../../../../src/engine/runtime/index.ts';
import { loraScale, readPeftAdapter, type LoraAdapter } from '../../../../src/engine/model/lora.ts';
import { logSoftmaxRef } from '../../../../src/engine/kernels/index.ts';
import { openModel } from '../../../../src/engine/model/open-model.ts';
import { writeRandomAdapter, writeTinyModel, type TinyModelOptions } from '../../../support/tiny-model.ts';

const root = await mkdtemp(join(tmpdir(), 'baton-ref-'));
afterAll(() => rm(root, { recursive: true, force: true }));

const VOCAB = 50;
const ids = [3, 17, 42, 8, 8, 29, 1];
let n = 0;

async function refModel(options: Partial<TinyModelOptions> = {}): Promise<RefModel> {
  const tiny = await writeTinyModel(join(root, `m${n++}`), {
    architecture: 'qwen2',
    dtype: 'F32',
    seed: 3,
    vocab: VOCAB,
    hidden: 32,
    tokenizer: 'none',
    ...options,
  });
  const { config, tensors } = await openModel(filesFromDir(tiny.dir));
  return loadRefModel(tensors, config);
}

function maxAbsDiff(a: ArrayLike<number>, b: ArrayLike<number>): number {
  expect(a.length).toBe(b.length);
  let m = 0;
  for (let i = 0; i < a.length; i++) m = Math.max(m, Math.abs(a[i] - b[i]));
  return m;
}

/** A copy of the model with some weights replaced. */
function withWeights(model: RefModel, changes: Record<string, Float64Array>, config = model.config): RefModel {
  return { ...model, config, weights: new Map([...model.weights, ...Object.entries(changes)]) };
}

const archs: Architecture[] = ['qwen2', 'qwen3', 'llama'];

describe('refForward', () => {
  it.each(archs)('%s: decoding with a KV cache gives the full-sequence logits', async (architecture) => {
    const model = await refModel({
      architecture,
      ...(architecture === 'llama'
        ? { ropeScaling: { type: 'llama3', factor: 8, lowFreqFactor: 1, highFreqFactor: 4, originalMaxPositionEmbeddings: 64 } }
        : {}),
    });
    const full = refForward(model, ids);
    expect(full.length).toBe(ids.length * VOCAB);
    expect(maxAbsDiff(full, new Float64Array(full.length))).toBeGreaterThan(0.1); // not degenerate
    const kv = createRefKvCache(model.config);
    const parts = [refForward(model, ids.slice(0, 3), { kv })];
    for (let t = 3; t < ids.length; t++) parts.push(refForward(model, [ids[t]], { kv }));
    expect(kv.length).toBe(ids.length);
    const incremental = Float64Array.from(parts.flatMap((p) => [...p]));
    expect(maxAbsDiff(incremental, full)).toBeLessThan(1e-10);
  });

  it.each(archs)('%s: rotary embeddings only see relative positions', async (architecture) => {
    const model = await refModel({ architecture });
    const shifted = refForward(model, ids, { startPos: 11 });
    expect(maxAbsDiff(shifted, refForward(model, ids))).toBeLessThan(1e-9);
  });

  it('matches a model whose grouped kv heads are spelled out one per query head', async () => {
    const model = await refModel({ heads: 4, kvHeads: 2 }); // Qwen2: k and v carry biases too
    const { headDim: D, hiddenSize: C } = model.config;
    const repeat = (w: Float64Array, rowLen: number) => {
      const out = new Float64Array(w.length * 2);
      for (let h = 0; h < 4; h++) out.set(w.subarray(Math.floor(h / 2) * D * rowLen, (Math.floor(h / 2) + 1) * D * rowLen), h * D * rowLen);
      return out;
    };
    const changes: Record<string, Float64Array> = {};
    for (let l = 0; l < 2; l++) {
      for (const p of ['k', 'v']) {
        const name = `model.layers.${l}.self_attn.${p}_proj`;
        changes[`${name}.weight`] = repeat(model.weights.get(`${name}.weight`)!, C);
        changes[`${name}.bias`] = repeat(model.weights.get(`${name}.bias`)!, 1);
      }
    }
    const spelled = withWeights(model, changes, { ...model.config, numKvHeads: 4 });
    expect(maxAbsDiff(refForward(spelled, ids), refForward(model, ids))).toBeLessThan(1e-10);
  });

  it('applies Qwen3 q/k RMSNorm per head after the projection: scaling q_proj changes nothing', async () => {
    const scaleQ = (m: RefModel) =>
      withWeights(m, {
        'model.layers.0.self_attn.q_proj.weight': m.weights.get('model.layers.0.self_attn.q_proj.weight')!.map((w) => 3 * w),
      });
    const qwen3 = await refModel({ architecture: 'qwen3', headDim: 12 });
    expect(qwen3.config.headDim).toBe(12); // explicit head_dim, not hidden / heads
    expect(maxAbsDiff(refForward(scaleQ(qwen3), ids), refForward(qwen3, ids))).toBeLessThan(1e-5);
    const llama = await refModel({ architecture: 'llama' });
    expect(maxAbsDiff(refForward(scaleQ(llama), ids), refForward(llama, ids))).toBeGreaterThan(1e-2);
  });

  it('uses the embedding as the LM head when tied', async () => {
    const model = await refModel({ tied: true });
    expect(model.weights.has('lm_head.weight')).toBe(false);
    const embed = model.weights.get('model.embed_tokens.weight')!;
    const changed = withWeights(model, { 'model.embed_tokens.weight': embed.map((w, i) => (i >= 10 * 32 && i < 11 * 32 ? w + 1 : w)) });
    // Token 10 is not in the input, so only its logit column moves.
    const [a, b] = [refForward(model, ids), refForward(changed, ids)];
    for (let t = 0; t < ids.length; t++) {
      expect(b[t * VOCAB + 10]).not.toBeCloseTo(a[t * VOCAB + 10], 3);
      expect(b[t * VOCAB + 11]).toBe(a[t * VOCAB + 11]);
    }
  });
});

describe('refForward with LoRA', async () => {
  const model = await refModel({ architecture: 'qwen3' });
  const dir = join(root, 'adapter');
  await writeRandomAdapter(dir, { model: model.config, r: 4, alpha: 8, targetModules: ['q_proj', 'v_proj', 'down_proj'], seed: 5 });
  const adapter = await readPeftAdapter(filesFromDir(dir), model.config);
  const zeroB: LoraAdapter = {
    config: adapter.config,
    weights: new Map([...adapter.weights].map(([k, w]) => [k, { ...w, B: new Float32Array(w.B.length) }])),
  };

  it('with B = 0 equals the base model exactly', () => {
    expect(maxAbsDiff(refForward(model, ids, { lora: zeroB }), refForward(model, ids))).toBe(0);
  });

  it('with B != 0 equals the base model with W + (alpha / r) B A merged in', () => {
    const withLora = refForward(model, ids, { lora: adapter });
    expect(maxAbsDiff(withLora, refForward(model, ids))).toBeGreaterThan(1e-2);
    const changes: Record<string, Float64Array> = {};
    const scale = loraScale(adapter.config);
    for (const [path, { A, B, inFeatures, outFeatures }] of adapter.weights) {
      const w = Float64Array.from(model.weights.get(`${path}.weight`)!);
      for (let o = 0; o < outFeatures; o++) {
        for (let i = 0; i < inFeatures; i++) {
          let s = 0;
          for (let k = 0; k < adapter.config.r; k++) s += B[o * adapter.config.r + k] * A[k * inFeatures + i];
          w[o * inFeatures + i] += scale * s;
        }
      }
      changes[`${path}.weight`] = w;
    }
    expect(maxAbsDiff(refForward(withWeights(model, changes), ids), withLora)).toBeLessThan(1e-10);
  });

  it('keeps the KV cache consistent with LoRA on', () => {
    const kv = createRefKvCache(model.config);
    const head = refForward(model, ids.slice(0, 5), { lora: adapter, kv });
    const tail = refForward(model, ids.slice(5), { lora: adapter, kv });
    const full = refForward(model, ids, { lora: adapter });
    expect(maxAbsDiff([...head, ...tail], full)).toBeLessThan(1e-10);
  });
});

describe('refLogprobs', () => {
  it('gives log p(next token), with logits divided by the temperature', async () => {
    const model = await refModel();
    const logits = refForward(model, ids);
    for (const temperature of [1, 0.7]) {
      const lp = logSoftmaxRef(
        logits.map((z) => z / temperature),
        ids.length,
        VOCAB,
      );
      const expected = ids.slice(1).map((next, i) => lp[i * VOCAB + next]);
      const got = refLogprobs(model, ids, { temperature });
      expect(got.length).toBe(ids.length - 1);
      expect(maxAbsDiff(got, expected)).toBeLessThan(1e-12);
      for (const v of got) expect(v).toBeLessThan(0);
    }
    expect(refLogprobs(model, ids, { temperature: 0.7 })).not.toEqual(refLogprobs(model, ids));
  });

  it('rejects ids outside the vocabulary', async () => {
    const model = await refModel();
    expect(() => refForward(model, [1, VOCAB])).toThrow(/token id 50 is outside the vocabulary of 50/);
  });
});

describe('refForward against an independent port of transformers', () => {
  // Logits of the last position, recorded once from a separate numpy port of transformers'
  // modeling_qwen2/qwen3/llama.py (batched matrices, rotate_half by concatenation, repeat_kv,
  // HF's llama3 frequency code), run on these very files; whole-sequence agreement was 4e-15.
  // They pin both the reference and the tiny-model generator: change either and these move.
  const cases: [string, TinyModelOptions, number[]][] = [
    [
      'qwen2, tied, BF16',
      { architecture: 'qwen2', dtype: 'BF16', seed: 11, tied: true, hidden: 16, heads: 4, kvHeads: 2, vocab: 32, tokenizer: 'none' },
      [-2.74167465556, -2.6000694545, -0.452932225779, 1.33776002352, 0.13713339672, -0.511403778789],
    ],
    [
      'qwen3, head_dim 8, v5 config',
      { architecture: 'qwen3', dtype: 'F32', seed: 12, hidden: 16, heads: 4, kvHeads: 2, headDim: 8, vocab: 32, tokenizer: 'none', configStyle: 'v5' },
      [-2.26200961276, 0.282671882688, -1.41649627113, -0.0725436245376, 0.439585841206, -0.437938235461],
    ],
    [
      'llama, llama3 rope scaling',
      {
        architecture: 'llama',
        dtype: 'F32',
        seed: 13,
        hidden: 32,
        heads: 2,
        kvHeads: 1,
        vocab: 32,
        tokenizer: 'none',
        ropeScaling: { type: 'llama3', factor: 8, lowFreqFactor: 1, highFreqFactor: 4, originalMaxPositionEmbeddings: 64 },
      },
      [1.04367316013, 0.720235909683, 1.24763740406, -0.532719828152, 1.17227228925, 0.158592601891],
    ],
  ];

  it.each(cases)('%s', async (_, options, expected) => {
    const tiny = await writeTinyModel(join(root, `x${n++}`), options);
    const { config, tensors } = await openModel(filesFromDir(tiny.dir));
    const logits = refForward(await loadRefModel(tensors, config), [5, 0, 31, 7, 7, 12]);
    expect(maxAbsDiff(logits.slice(5 * 32, 5 * 32 + 6), expected)).toBeLessThan(1e-10);
  });
});

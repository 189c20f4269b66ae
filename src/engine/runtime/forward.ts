/**
 * The decoder forward pass encoded into one command batch, a port of model/forward.ref.ts's
 * refForward (Qwen2, Qwen3, Llama). For T tokens at positions startPos .. startPos + T - 1 it
 * appends their keys and values to the cache and leaves the final-normed hidden states (T, C).
 * Dimension letters as in ops.ref.ts: T tokens, C hidden, H query heads, KV kv heads, D head size,
 * I MLP size, V vocabulary. The T tokens may belong to several sequences decoded together (a group):
 * T / slots.length consecutive tokens per sequence, each sequence with its own slot of the cache.
 */
import type { CommandBatch } from '../device/index.ts';
import { attentionForward, embeddingForward, embeddingInt4Forward, rmsnormForward, rmsnormThreads, ropeCacheForward, swigluForward } from '../kernels/index.ts';
import type { ModelConfig } from '../model/index.ts';
import { wholeBuffer, type GpuTensor } from './gpu-tensor.ts';
import type { KvCache } from './kv-cache.ts';
import { linearForward, type LinearArgs } from './linear.ts';
import type { GpuLora } from './lora-weights.ts';
import type { ModelWeights } from './model-weights.ts';
import type { Scratch } from './scratch.ts';

export interface ForwardInputs {
  ids: GPUBuffer; // (T) u32
  rope: GPUBuffer; // (T, D/2, 2) cos, sin for this call's positions
  T: number;
  startPos: number;
  cache: KvCache; // holds startPos tokens in each slot, room for T / slots.length more
  /** The cache slot of each sequence, in the order of their tokens. */
  slots: readonly number[];
  slotBuffer: GPUBuffer; // the same, (slots.length) u32
  /** Threads per matmul output column (linear.ts). */
  lanes: number;
}

/** x (T, C) = the embedding rows of ids (T), one dispatch per row chunk of the table (float or int4). */
export function encodeEmbedding(batch: CommandBatch, weights: ModelWeights, ids: GPUBuffer, x: GPUBuffer, T: number): void {
  const { embed, dtype } = weights;
  const C = embed.cols;
  for (const chunk of embed.chunks) {
    const shape = { T, C, rowStart: chunk.rowStart, rows: chunk.rows };
    if (embed.int4) {
      batch.run(embeddingInt4Forward, { dtype, groupSize: embed.int4.groupSize }, { ids, table: chunk.buffer, scales: chunk.scales!, out: x }, shape);
    } else {
      batch.run(embeddingForward, { dtype }, { ids, table: chunk.buffer, out: x }, shape);
    }
  }
}

export function encodeForward(
  batch: CommandBatch,
  scratch: Scratch,
  config: ModelConfig,
  weights: ModelWeights,
  lora: GpuLora | undefined,
  input: ForwardInputs,
): GPUBuffer {
  const { hiddenSize: C, numHeads: H, numKvHeads: KV, headDim: D, intermediateSize: I, rmsNormEps: eps } = config;
  const { T, startPos, cache, lanes } = input;
  const dtype = weights.dtype;

  const linear = (a: Omit<LinearArgs, 'lora' | 'M' | 'lanes'>) => {
    const module = lora?.modules.get(a.weight.name.replace(/\.weight$/, ''));
    linearForward(batch, { ...a, M: T, lanes, ...(module ? { lora: { module, scale: lora!.scale, scratch } } : {}) });
  };
  const rmsnorm = (x: GPUBuffer, w: GpuTensor, out: GPUBuffer, rows: number, width: number) =>
    batch.run(rmsnormForward, { dtype, threads: rmsnormThreads(width) }, { x, w: wholeBuffer(w), out }, { rows, C: width, eps });

  const x = scratch.floats(T * C, 'x'); // (T, C) residual stream
  encodeEmbedding(batch, weights, input.ids, x, T);
  const h = scratch.floats(T * C, 'h'); // (T, C)
  const q = scratch.floats(T * H * D, 'q'); // (T, H, D)
  const k = scratch.floats(T * KV * D, 'k'); // (T, KV, D)
  const v = scratch.floats(T * KV * D, 'v'); // (T, KV, D)
  const qn = config.qkNorm ? scratch.floats(T * H * D, 'q normed') : q;
  const kn = config.qkNorm ? scratch.floats(T * KV * D, 'k normed') : k;
  const att = scratch.floats(T * H * D, 'attention'); // (T, H, D)
  const gate = scratch.floats(T * I, 'gate'); // (T, I)
  const up = scratch.floats(T * I, 'up'); // (T, I)
  const act = scratch.floats(T * I, 'swiglu'); // (T, I)
  const Tq = T / input.slots.length;

  weights.layers.forEach((l, layer) => {
    rmsnorm(x, l.inputNorm, h, T, C);
    linear({ x: h, weight: l.q, bias: l.qBias, out: q });
    linear({ x: h, weight: l.k, bias: l.kBias, out: k });
    linear({ x: h, weight: l.v, bias: l.vBias, out: v });
    if (l.qNorm && l.kNorm) {
      rmsnorm(q, l.qNorm, qn, T * H, D);
      rmsnorm(k, l.kNorm, kn, T * KV, D);
    }
    batch.run(
      ropeCacheForward,
      {},
      { q: qn, k: kn, v, cs: input.rope, slots: input.slotBuffer, kc: cache.k[layer], vc: cache.v[layer] },
      { T, Tq, H, KV, D, startPos, slotStride: cache.slotBytes / 4 },
    );
    batch.run(
      attentionForward,
      { headDim: D },
      { q: qn, k: cache.k[layer], v: cache.v[layer], slots: input.slotBuffer, out: att },
      { T, Tq, slotStride: cache.slotBytes / 4, Hq: H, Hkv: KV, startPos, scale: 1 / Math.sqrt(D) },
    );
    linear({ x: att, weight: l.o, out: x, accumulate: true });

    rmsnorm(x, l.postNorm, h, T, C);
    linear({ x: h, weight: l.gate, out: gate });
    linear({ x: h, weight: l.up, out: up });
    batch.run(swigluForward, {}, { gate, up, out: act }, { n: T * I });
    linear({ x: act, weight: l.down, out: x, accumulate: true });
  });
  rmsnorm(x, weights.norm, h, T, C);
  return h;
}

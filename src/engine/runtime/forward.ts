/**
 * The decoder forward pass encoded into one command batch, a port of forward.ref.ts's
 * refForward (Qwen2, Qwen3, Llama). For T tokens at positions startPos .. startPos + T - 1 it
 * appends their keys and values to the cache and leaves the final-normed hidden states (T, C).
 * Dimension letters as in forward.ref.ts: T tokens, C hidden, H query heads, KV kv heads, D head size,
 * I MLP size, V vocabulary. The T tokens may belong to several sequences decoded together (a group):
 * T / slots.length consecutive tokens per sequence, each sequence with its own slot of the cache.
 */
import type { CommandBatch } from '../device/index.ts';
import { attentionForward, embeddingForward, embeddingInt4Forward, rmsnormForward, rmsnormThreads, ropeCacheForward, swigluForward } from '../kernels/index.ts';
import type { ModelConfig } from '../model/index.ts';
import { wholeBuffer, type GpuTensor } from './gpu-tensor.ts';
import type { KvCache } from './kv-cache.ts';
import { linearForward, type LinearArgs } from './linear.ts';
import type { GpuLora, GpuLoraModule } from './lora-weights.ts';
import type { ModelWeights } from './model-weights.ts';
import type { Scratch } from './scratch.ts';

export interface ForwardInputs {
  ids: GPUBuffer; // (T) u32
  /** (T, D/2, 2) cos, sin for this call's positions, then the slots (as below) as u32 bits. */
  rope: GPUBuffer;
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

/** The buffers and helpers one forward pass's layers share, fused or not. */
export interface LayerPass {
  readonly batch: CommandBatch;
  readonly scratch: Scratch;
  readonly config: ModelConfig;
  readonly weights: ModelWeights;
  readonly lora: GpuLora | undefined;
  readonly input: ForwardInputs;
  readonly x: GPUBuffer; // (T, C) residual stream
  readonly h: GPUBuffer; // (T, C) normed
  readonly q: GPUBuffer; // (T, H, D)
  readonly k: GPUBuffer; // (T, KV, D)
  readonly v: GPUBuffer; // (T, KV, D)
  readonly gate: GPUBuffer; // (T, I)
  readonly up: GPUBuffer; // (T, I)
  readonly act: GPUBuffer; // (T, I) swiglu
  /** The LoRA module adapting `weight`, if any. */
  loraOf(weight: GpuTensor): { module: GpuLoraModule; scale: number; scratch: Scratch } | undefined;
  linear(a: Omit<LinearArgs, 'lora' | 'M' | 'lanes'>): void;
  rmsnorm(x: GPUBuffer, w: GpuTensor, out: GPUBuffer, rows: number, width: number): void;
}

/** Embeds the ids into a new pass's residual stream x. */
export function beginPass(
  batch: CommandBatch,
  scratch: Scratch,
  config: ModelConfig,
  weights: ModelWeights,
  lora: GpuLora | undefined,
  input: ForwardInputs,
): LayerPass {
  const { hiddenSize: C, numHeads: H, numKvHeads: KV, headDim: D, intermediateSize: I, rmsNormEps: eps } = config;
  const { T, lanes } = input;
  const dtype = weights.dtype;
  const loraOf = (weight: GpuTensor) => {
    const module = lora?.modules.get(weight.name.replace(/\.weight$/, ''));
    return module ? { module, scale: lora!.scale, scratch } : undefined;
  };
  const x = scratch.floats(T * C, 'x');
  encodeEmbedding(batch, weights, input.ids, x, T);
  return {
    batch,
    scratch,
    config,
    weights,
    lora,
    input,
    x,
    h: scratch.floats(T * C, 'h'),
    q: scratch.floats(T * H * D, 'q'),
    k: scratch.floats(T * KV * D, 'k'),
    v: scratch.floats(T * KV * D, 'v'),
    gate: scratch.floats(T * I, 'gate'),
    up: scratch.floats(T * I, 'up'),
    act: scratch.floats(T * I, 'swiglu'),
    loraOf,
    linear: (a) => {
      const adapted = loraOf(a.weight);
      linearForward(batch, { ...a, M: T, lanes, ...(adapted ? { lora: adapted } : {}) });
    },
    rmsnorm: (x, w, out, rows, width) =>
      batch.run(rmsnormForward, { dtype, threads: rmsnormThreads(width) }, { x, w: wholeBuffer(w), out }, { rows, C: width, eps }),
  };
}

/**
 * From the pass's q, k, v of layer `layer` (before rope and any q/k norm): the q/k norms, rope with
 * the cache append, attention, and the output projection added into x. `roped`: q is rotated and
 * the cache appended already (forward-fused.ts's q/k/v matmul did it), only attention and o remain.
 */
export function encodeAttention(p: LayerPass, layer: number, roped = false): void {
  const { numHeads: H, numKvHeads: KV, headDim: D } = p.config;
  const { T, cache } = p.input;
  const l = p.weights.layers[layer];
  let [q, k] = [p.q, p.k];
  if (l.qNorm && l.kNorm) {
    q = p.scratch.floats(T * H * D, 'q normed');
    k = p.scratch.floats(T * KV * D, 'k normed');
    p.rmsnorm(p.q, l.qNorm, q, T * H, D);
    p.rmsnorm(p.k, l.kNorm, k, T * KV, D);
  }
  const att = p.scratch.floats(T * H * D, 'attention');
  const Tq = T / p.input.slots.length;
  const { startPos, slotBuffer: slots } = p.input;
  if (!roped)
    p.batch.run(
      ropeCacheForward,
      {},
      { q, k, v: p.v, cs: p.input.rope, slots, kc: cache.k[layer], vc: cache.v[layer] },
      { T, Tq, H, KV, D, startPos, slotStride: cache.slotBytes / 4 },
    );
  p.batch.run(
    attentionForward,
    { headDim: D },
    { q, k: cache.k[layer], v: cache.v[layer], slots, out: att },
    { T, Tq, slotStride: cache.slotBytes / 4, Hq: H, Hkv: KV, startPos, scale: 1 / Math.sqrt(D) },
  );
  p.linear({ x: att, weight: l.o, out: p.x, accumulate: true });
}

/** Layer `layer` as training runs it: every norm, projection and activation its own dispatch. */
export function encodeLayer(p: LayerPass, layer: number): void {
  const { hiddenSize: C, intermediateSize: I } = p.config;
  const T = p.input.T;
  const l = p.weights.layers[layer];
  p.rmsnorm(p.x, l.inputNorm, p.h, T, C);
  p.linear({ x: p.h, weight: l.q, bias: l.qBias, out: p.q });
  p.linear({ x: p.h, weight: l.k, bias: l.kBias, out: p.k });
  p.linear({ x: p.h, weight: l.v, bias: l.vBias, out: p.v });
  encodeAttention(p, layer);
  p.rmsnorm(p.x, l.postNorm, p.h, T, C);
  p.linear({ x: p.h, weight: l.gate, out: p.gate });
  p.linear({ x: p.h, weight: l.up, out: p.up });
  p.batch.run(swigluForward, {}, { gate: p.gate, up: p.up, out: p.act }, { n: T * I });
  p.linear({ x: p.act, weight: l.down, out: p.x, accumulate: true });
}

/** The unfused forward: returns the final-normed hidden states (T, C). */
export function encodeForward(
  batch: CommandBatch,
  scratch: Scratch,
  config: ModelConfig,
  weights: ModelWeights,
  lora: GpuLora | undefined,
  input: ForwardInputs,
): GPUBuffer {
  const p = beginPass(batch, scratch, config, weights, lora, input);
  weights.layers.forEach((_, layer) => encodeLayer(p, layer));
  p.rmsnorm(p.x, weights.norm, p.h, input.T, config.hiddenSize);
  return p.h;
}

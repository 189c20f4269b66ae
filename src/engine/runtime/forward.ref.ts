/**
 * The whole model forward pass in float64, built from the kernels' references (kernels/*.ref.ts): the
 * reference the GPU runtime (forward.ts) is checked against, token for token. Slow by design; for tiny
 * models only. Semantics are those of Hugging Face transformers' Qwen2/Qwen3/Llama modeling code.
 * Row-major throughout; dimension letters, here and in every kernel:
 *   T tokens in this call, S keys in the cache (past + current), C hidden, H query heads,
 *   KV key/value heads, D head size, I MLP size, V vocabulary.
 */
import { BatonError } from '../../core/errors/index.ts';
import { attentionRef, embeddingRef, logSoftmaxRef, matmulRef, rmsnormRef, ropeRef, swigluRef, type Vec } from '../kernels/index.ts';
import { loraScale, ropeInvFreq, weightNames, type LoraAdapter, type ModelConfig, type TensorSource } from '../model/index.ts';

export interface RefModel {
  config: ModelConfig;
  invFreq: Float64Array; // (D/2)
  /** Every weight by HF tensor name, as float64. */
  weights: Map<string, Float64Array>;
}

/** Keys and values of the tokens seen so far, per layer; `length` tokens. */
interface RefKvCache {
  length: number;
  k: Float64Array[]; // per layer (length, KV, D)
  v: Float64Array[]; // per layer (length, KV, D)
}

interface RefForwardOptions {
  lora?: LoraAdapter;
  /** Extended in place with this call's tokens; positions continue from its length. */
  kv?: RefKvCache;
  /** Position of ids[0]; defaults to kv.length, or 0. */
  startPos?: number;
}

export async function loadRefModel(source: TensorSource, config: ModelConfig): Promise<RefModel> {
  const names = weightNames(config);
  const all = [names.embed, names.norm, names.lmHead, ...names.layers.flatMap((l) => Object.values(l))];
  const weights = new Map<string, Float64Array>();
  for (const name of new Set(all)) weights.set(name, Float64Array.from(await source.read(name)));
  return { config, invFreq: ropeInvFreq(config), weights };
}

export function createRefKvCache(config: ModelConfig): RefKvCache {
  const empty = () => Array.from({ length: config.numLayers }, () => new Float64Array(0));
  return { length: 0, k: empty(), v: empty() };
}

function concat(a: Float64Array, b: Float64Array): Float64Array {
  const out = new Float64Array(a.length + b.length);
  out.set(a);
  out.set(b, a.length);
  return out;
}

function addInPlace(a: Float64Array, b: Vec): Float64Array {
  for (let i = 0; i < a.length; i++) a[i] += b[i];
  return a;
}

/** A linear layer by its weight name, with the LoRA delta scale * (x A^T) B^T when the adapter covers it. */
function linear(model: RefModel, weight: string, bias: string | undefined, x: Float64Array, T: number, lora?: LoraAdapter): Float64Array {
  const w = model.weights.get(weight)!;
  const b = bias ? model.weights.get(bias) : undefined;
  const inF = x.length / T;
  const outF = w.length / inF;
  const y = matmulRef(x, w, b, T, inF, outF);
  const ab = lora?.weights.get(weight.slice(0, -'.weight'.length));
  if (!ab) return y;
  const r = lora!.config.r;
  const xa = matmulRef(x, ab.A, undefined, T, inF, r);
  const delta = matmulRef(xa, ab.B, undefined, T, r, outF);
  const scale = loraScale(lora!.config);
  for (let i = 0; i < y.length; i++) y[i] += scale * delta[i];
  return y;
}

/** Logits (T, V) for `ids`, row-major. */
export function refForward(model: RefModel, ids: number[], opts: RefForwardOptions = {}): Float64Array {
  const { config: c, invFreq } = model;
  const { hiddenSize: C, numHeads: H, numKvHeads: KV, headDim: D, vocabSize: V, rmsNormEps: eps } = c;
  const T = ids.length;
  const kv = opts.kv;
  const startPos = opts.startPos ?? kv?.length ?? 0;
  for (const id of ids) {
    if (!Number.isInteger(id) || id < 0 || id >= V) {
      throw new BatonError({ code: 'data/invalid', message: `token id ${id} is outside the vocabulary of ${V}.`, data: { id } });
    }
  }
  const names = weightNames(c);
  const w = (name: string) => model.weights.get(name)!;
  const lora = opts.lora;

  const x = embeddingRef(w(names.embed), ids, C); // (T, C)
  names.layers.forEach((l, layer) => {
    const h = rmsnormRef(x, w(l.inputNorm), T, C, eps);
    let q = linear(model, l.q, l.qBias, h, T, lora); // (T, H, D)
    let k = linear(model, l.k, l.kBias, h, T, lora); // (T, KV, D)
    const v = linear(model, l.v, l.vBias, h, T, lora); // (T, KV, D)
    if (l.qNorm && l.kNorm) {
      q = rmsnormRef(q, w(l.qNorm), T * H, D, eps);
      k = rmsnormRef(k, w(l.kNorm), T * KV, D, eps);
    }
    q = ropeRef(q, T, H, D, invFreq, startPos);
    k = ropeRef(k, T, KV, D, invFreq, startPos);
    let keys = k;
    let values = v;
    if (kv) {
      keys = kv.k[layer] = concat(kv.k[layer], k);
      values = kv.v[layer] = concat(kv.v[layer], v);
    }
    const S = keys.length / (KV * D);
    const att = attentionRef(q, keys, values, { T, S, H, KV, D }); // (T, H, D)
    addInPlace(x, linear(model, l.o, undefined, att, T, lora));

    const h2 = rmsnormRef(x, w(l.postNorm), T, C, eps);
    const gate = linear(model, l.gate, undefined, h2, T, lora);
    const up = linear(model, l.up, undefined, h2, T, lora);
    addInPlace(x, linear(model, l.down, undefined, swigluRef(gate, up), T, lora));
  });
  if (kv) kv.length += T;
  const final = rmsnormRef(x, w(names.norm), T, C, eps);
  return matmulRef(final, w(names.lmHead), undefined, T, C, V);
}

interface RefLogprobOptions extends RefForwardOptions {
  /** Logits are divided by it before the softmax, as GRPO does with the sampling temperature. */
  temperature?: number;
}

/** logprobs[i] = log p(ids[i + 1] | ids[0..i]); length ids.length - 1. */
export function refLogprobs(model: RefModel, ids: number[], opts: RefLogprobOptions = {}): number[] {
  const V = model.config.vocabSize;
  const T = ids.length;
  const logits = refForward(model, ids, opts);
  const temperature = opts.temperature ?? 1;
  const lp = logSoftmaxRef(temperature === 1 ? logits : logits.map((z) => z / temperature), T, V);
  return ids.slice(1).map((next, i) => lp[i * V + next]);
}

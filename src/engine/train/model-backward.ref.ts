/**
 * The whole model's backward pass in float64: the reference the GPU trainer (train/) is checked against,
 * as runtime/forward.ref.ts is for the forward. For one sequence `ids` it gives the per-token logprobs
 * logp[i] = log p(ids[i + 1] | ids[0..i]) at a temperature and the gradient of
 *   L = sum_i dLogp[i] * logp[i]
 * (dLogp is what core/rl's grpoLoss returns: the loss's gradient in each logprob) with respect to the
 * LoRA A and B of every adapted layer, or to every weight of the model (full fine-tuning). Built from
 * the kernels' backward references, in the reverse order of refForward; slow by design, tiny models only.
 */
import { BatonError } from '../../core/errors/index.ts';
import {
  attentionBackwardRef,
  attentionRef,
  embeddingBackwardRef,
  embeddingRef,
  entropyRef,
  logprobsBackwardRef,
  logprobsRef,
  matmulBackwardInputRef,
  matmulBackwardWeightRef,
  matmulRef,
  rmsnormBackwardRef,
  rmsnormRef,
  ropeBackwardRef,
  ropeRef,
  swigluBackwardRef,
  swigluRef,
  type Vec,
} from '../kernels/index.ts';
import { loraScale, weightNames, type LoraAdapter, type LayerWeightNames } from '../model/index.ts';
import type { RefModel } from '../runtime/index.ts';

interface RefGradientOptions {
  /** Logits are divided by it first, as GRPO's loss does (default 1). */
  temperature?: number;
  /** The adapter in use; with `wrt: 'lora'` its A and B are what the gradient is taken in. */
  lora?: LoraAdapter;
  /** 'lora': gradients of the adapter's A and B; 'weights': of every weight of the model. */
  wrt: 'lora' | 'weights';
}

interface RefGradients {
  logprobs: Float64Array; // (T - 1)
  /** Entropy of each predicted distribution (T - 1), at the temperature: a GRPO metric. */
  entropy: Float64Array;
  /** By module path, for wrt 'lora'. */
  lora: Map<string, { dA: Float64Array; dB: Float64Array }>; // (r, in), (out, r)
  /** By weight name, for wrt 'weights'; tied embeddings get the sum of both uses. */
  weights: Map<string, Float64Array>;
}

/** What one layer's backward needs from its forward. */
interface LayerActivations {
  x: Float64Array; // (T, C) the layer's input
  h: Float64Array; // (T, C) input-normed
  q: Float64Array; // (T, H, D) projected, before q-norm
  k: Float64Array; // (T, KV, D)
  v: Float64Array; // (T, KV, D)
  qr: Float64Array; // (T, H, D) normed and rotated
  kr: Float64Array; // (T, KV, D)
  att: Float64Array; // (T, H, D)
  mid: Float64Array; // (T, C) after the attention residual
  h2: Float64Array; // (T, C)
  gate: Float64Array; // (T, I)
  up: Float64Array; // (T, I)
  act: Float64Array; // (T, I)
}

export function refLogprobGradients(model: RefModel, ids: number[], dLogp: Vec, opts: RefGradientOptions): RefGradients {
  const { config: c, invFreq } = model;
  const { hiddenSize: C, numHeads: H, numKvHeads: KV, headDim: D, vocabSize: V, rmsNormEps: eps } = c;
  const T = ids.length;
  if (T < 2 || dLogp.length !== T - 1) {
    throw new BatonError({ code: 'data/invalid', message: `need at least two tokens and one dLogp per predicted token (${T - 1}), got ${dLogp.length}.` });
  }
  if (opts.wrt === 'lora' && !opts.lora) throw new BatonError({ code: 'internal', message: 'gradients in LoRA weights need an adapter.' });
  const temperature = opts.temperature ?? 1;
  const names = weightNames(c);
  const w = (name: string) => model.weights.get(name)!;
  const lora = opts.lora;
  const scale = lora ? loraScale(lora.config) : 0;
  const grads: RefGradients = { logprobs: new Float64Array(0), entropy: new Float64Array(0), lora: new Map(), weights: new Map() };

  const addGrad = (name: string, g: Float64Array) => {
    const sum = grads.weights.get(name);
    if (!sum) grads.weights.set(name, g);
    else for (let i = 0; i < g.length; i++) sum[i] += g[i];
  };
  const module = (weight: string) => lora?.weights.get(weight.slice(0, -'.weight'.length));

  const linear = (weight: string, bias: string | undefined, x: Float64Array): Float64Array => {
    const W = w(weight);
    const inF = x.length / T;
    const outF = W.length / inF;
    const y = matmulRef(x, W, bias ? w(bias) : undefined, T, inF, outF);
    const ab = module(weight);
    if (ab) {
      const r = lora!.config.r;
      const delta = matmulRef(matmulRef(x, ab.A, undefined, T, inF, r), ab.B, undefined, T, r, outF);
      for (let i = 0; i < y.length; i++) y[i] += scale * delta[i];
    }
    return y;
  };

  /** dy (T, out) back through a linear layer: returns dx and adds the gradients of what trains. */
  const linearBackward = (weight: string, bias: string | undefined, x: Float64Array, dy: Float64Array): Float64Array => {
    const W = w(weight);
    const inF = x.length / T;
    const outF = W.length / inF;
    const dx = matmulBackwardInputRef(dy, W, T, inF, outF);
    if (opts.wrt === 'weights') {
      const { dw, dbias } = matmulBackwardWeightRef(dy, x, T, inF, outF);
      addGrad(weight, dw);
      if (bias) addGrad(bias, dbias);
    }
    const ab = module(weight);
    if (ab) {
      const r = lora!.config.r;
      // y += s (x A^T) B^T: dB = s dy^T (x A^T), d(x A^T) = s dy B, dA = d(x A^T)^T x, dx += d(x A^T) A.
      const xa = matmulRef(x, ab.A, undefined, T, inF, r); // (T, r)
      const dxa = matmulBackwardInputRef(dy, ab.B, T, r, outF).map((g) => g * scale); // (T, r)
      const dxLora = matmulBackwardInputRef(dxa, ab.A, T, inF, r);
      for (let i = 0; i < dx.length; i++) dx[i] += dxLora[i];
      if (opts.wrt === 'lora') {
        const dB = matmulBackwardWeightRef(dy, xa, T, r, outF).dw.map((g) => g * scale);
        const dA = matmulBackwardWeightRef(dxa, x, T, inF, r).dw;
        grads.lora.set(weight.slice(0, -'.weight'.length), { dA, dB });
      }
    }
    return dx;
  };

  const norm = (name: string, x: Float64Array, rows: number, dim: number) => rmsnormRef(x, w(name), rows, dim, eps);
  /** dy back through an RMSNorm: returns dx and adds the norm weight's gradient when weights train. */
  const normBackward = (name: string, x: Float64Array, dy: Float64Array, rows: number, dim: number): Float64Array => {
    const { dx, dweight } = rmsnormBackwardRef(dy, x, w(name), rows, dim, eps);
    if (opts.wrt === 'weights') addGrad(name, dweight);
    return dx;
  };
  const add = (a: Float64Array, b: Vec) => {
    for (let i = 0; i < a.length; i++) a[i] += b[i];
    return a;
  };

  // Forward, keeping what each layer's backward needs.
  let x = embeddingRef(w(names.embed), ids, C);
  const saved: LayerActivations[] = [];
  const shape = { T, S: T, H, KV, D };
  for (const l of names.layers) {
    const h = norm(l.inputNorm, x, T, C);
    const q = linear(l.q, l.qBias, h);
    const k = linear(l.k, l.kBias, h);
    const v = linear(l.v, l.vBias, h);
    const qr = ropeRef(l.qNorm ? norm(l.qNorm, q, T * H, D) : q, T, H, D, invFreq);
    const kr = ropeRef(l.kNorm ? norm(l.kNorm, k, T * KV, D) : k, T, KV, D, invFreq);
    const att = attentionRef(qr, kr, v, shape);
    const mid = add(Float64Array.from(x), linear(l.o, undefined, att));
    const h2 = norm(l.postNorm, mid, T, C);
    const gate = linear(l.gate, undefined, h2);
    const up = linear(l.up, undefined, h2);
    const act = swigluRef(gate, up);
    saved.push({ x, h, q, k, v, qr, kr, att, mid, h2, gate, up, act });
    x = add(Float64Array.from(mid), linear(l.down, undefined, act));
  }
  const final = norm(names.norm, x, T, C);
  const logits = matmulRef(final, w(names.lmHead), undefined, T, C, V);

  // The last position predicts nothing here: its rows of logits get no gradient.
  const R = T - 1;
  const targets = ids.slice(1);
  grads.logprobs = logprobsRef(logits, targets, R, V, temperature);
  grads.entropy = entropyRef(logits, R, V, temperature);
  const dLogits = new Float64Array(T * V);
  dLogits.set(logprobsBackwardRef(logits, targets, dLogp, R, V, temperature));

  let dx = normBackward(names.norm, x, linearBackward(names.lmHead, undefined, final, dLogits), T, C);
  for (let layer = names.layers.length - 1; layer >= 0; layer--) {
    const l: LayerWeightNames = names.layers[layer];
    const a = saved[layer];
    const dAct = linearBackward(l.down, undefined, a.act, dx);
    const { dgate, dup } = swigluBackwardRef(dAct, a.gate, a.up);
    const dh2 = add(linearBackward(l.gate, undefined, a.h2, dgate), linearBackward(l.up, undefined, a.h2, dup));
    const dMid = add(dx, normBackward(l.postNorm, a.mid, dh2, T, C));
    const dAtt = linearBackward(l.o, undefined, a.att, dMid);
    const { dq: dqr, dk: dkr, dv } = attentionBackwardRef(dAtt, a.qr, a.kr, a.v, shape);
    const dqn = ropeBackwardRef(dqr, T, H, D, invFreq);
    const dkn = ropeBackwardRef(dkr, T, KV, D, invFreq);
    const dq = l.qNorm ? normBackward(l.qNorm, a.q, dqn, T * H, D) : dqn;
    const dk = l.kNorm ? normBackward(l.kNorm, a.k, dkn, T * KV, D) : dkn;
    const dh = add(add(linearBackward(l.q, l.qBias, a.h, dq), linearBackward(l.k, l.kBias, a.h, dk)), linearBackward(l.v, l.vBias, a.h, dv));
    dx = add(dMid, normBackward(l.inputNorm, a.x, dh, T, C));
  }
  if (opts.wrt === 'weights') addGrad(names.embed, embeddingBackwardRef(dx, ids, V, C));
  return grads;
}

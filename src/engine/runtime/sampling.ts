/**
 * Choosing the next token from one row of logits, on the CPU in float64: greedy (temperature 0),
 * or seeded sampling from softmax(z / temperature) restricted to the top-k and then to the smallest
 * top-p nucleus. The logprob returned with each token is log softmax(z / temperature)[token] over
 * the whole vocabulary (temperature 1 for greedy), which is what GRPO's loss recomputes.
 */
import { BatonError } from '../../core/errors/index.ts';

export interface SamplingOptions {
  /** 0 (the default) is greedy. */
  temperature?: number;
  /** Keep the k most likely tokens; 0 or undefined keeps all. */
  topK?: number;
  /** Keep the most likely tokens whose probabilities sum to at least p; 1 or undefined keeps all. */
  topP?: number;
  seed?: number;
}

export interface Sampled {
  token: number;
  logprob: number;
}

export type Sampler = (logits: Float32Array) => Sampled;

/** mulberry32: small, fast and seeded; floats in [0, 1). */
export function seededUniform(seed: number): () => number {
  let s = seed >>> 0;
  return () => {
    s = (s + 0x6d2b79f5) >>> 0;
    let t = Math.imul(s ^ (s >>> 15), s | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** log softmax(logits / temperature), float64. */
export function logSoftmax(logits: Float32Array, temperature = 1): Float64Array {
  let max = -Infinity;
  for (let i = 0; i < logits.length; i++) max = Math.max(max, logits[i] / temperature);
  let sum = 0;
  for (let i = 0; i < logits.length; i++) sum += Math.exp(logits[i] / temperature - max);
  const lse = max + Math.log(sum);
  return Float64Array.from(logits, (z) => z / temperature - lse);
}

function argmax(values: ArrayLike<number>): number {
  let best = 0;
  for (let i = 1; i < values.length; i++) if (values[i] > values[best]) best = i;
  return best;
}

function invalid(message: string): BatonError {
  return new BatonError({ code: 'run/config', message });
}

export function createSampler(options: SamplingOptions = {}): Sampler {
  const { temperature = 0, topK = 0, topP = 1, seed = 0 } = options;
  if (!(temperature >= 0)) throw invalid(`temperature must be 0 (greedy) or positive, got ${temperature}.`);
  if (!Number.isInteger(topK) || topK < 0) throw invalid(`top-k must be a non-negative integer, got ${topK}.`);
  if (!(topP > 0 && topP <= 1)) throw invalid(`top-p must be in (0, 1], got ${topP}.`);
  if (temperature === 0) {
    return (logits) => {
      const token = argmax(logits);
      return { token, logprob: logSoftmax(logits)[token] };
    };
  }
  const uniform = seededUniform(seed);
  return (logits) => {
    const logp = logSoftmax(logits, temperature);
    let order = Array.from(logp.keys()).sort((a, b) => logp[b] - logp[a] || a - b);
    if (topK > 0) order = order.slice(0, topK);
    if (topP < 1) {
      let mass = 0;
      let keep = 0;
      while (keep < order.length && mass < topP) mass += Math.exp(logp[order[keep++]]);
      order = order.slice(0, keep);
    }
    let total = 0;
    for (const i of order) total += Math.exp(logp[i]);
    let u = uniform() * total;
    for (const i of order) {
      u -= Math.exp(logp[i]);
      if (u < 0) return { token: i, logprob: logp[i] };
    }
    const last = order[order.length - 1];
    return { token: last, logprob: logp[last] };
  };
}

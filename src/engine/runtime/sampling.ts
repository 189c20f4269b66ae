/**
 * Choosing the next token from one row of logits, on the CPU in float64: greedy (temperature 0),
 * or seeded sampling from softmax(z / temperature) restricted to the top-k and then to the smallest
 * top-p nucleus. The logprob returned with each token is log softmax(z / temperature)[token] over
 * the whole vocabulary (temperature 1 for greedy), which is what GRPO's loss recomputes.
 * An `allowed` bitmask (format-constrained sampling) limits which tokens may be drawn; top-k and
 * top-p then apply among the allowed ones, and the logprob is still the unmasked one above.
 */
import { BatonError } from '../../core/errors/index.ts';
import { seededRandom } from '../../core/random.ts';

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

/** `allowed`: bit (id & 31) of word (id >> 5) set for each id that may be drawn; absent, all may. */
export type Sampler = (logits: Float32Array, allowed?: Uint32Array) => Sampled;

/**
 * The seed of random stream `index` derived from `seed` (the completions of a group): a murmur3-style
 * mix of both, so that nearby seeds and indices give unrelated streams.
 */
export function streamSeed(seed: number, index: number): number {
  let h = Math.imul((seed >>> 0) ^ 0x9e3779b9, 0x85ebca6b) ^ Math.imul(index + 1, 0xc2b2ae35);
  h = Math.imul(h ^ (h >>> 16), 0x7feb352d);
  h = Math.imul(h ^ (h >>> 15), 0x846ca68b);
  return (h ^ (h >>> 16)) >>> 0;
}

/** log sum exp(logits * inv), with the max taken out first (and returned, with the sum, for drawing). */
function logSumExp(logits: Float32Array, inv: number): { lse: number; max: number; sum: number } {
  let max = -Infinity;
  for (let i = 0; i < logits.length; i++) max = Math.max(max, logits[i] * inv);
  let sum = 0;
  for (let i = 0; i < logits.length; i++) sum += Math.exp(logits[i] * inv - max);
  return { lse: max + Math.log(sum), max, sum };
}

/** log softmax(logits / temperature), float64. */
export function logSoftmax(logits: Float32Array, temperature = 1): Float64Array {
  const inv = 1 / temperature;
  const { lse } = logSumExp(logits, inv);
  const out = new Float64Array(logits.length);
  for (let i = 0; i < logits.length; i++) out[i] = logits[i] * inv - lse;
  return out;
}

function isAllowed(allowed: Uint32Array | undefined, id: number): boolean {
  return allowed === undefined || ((allowed[id >>> 5] >>> (id & 31)) & 1) === 1;
}

function argmax(values: ArrayLike<number>, allowed: Uint32Array | undefined): number {
  let best = -1;
  for (let i = 0; i < values.length; i++) if (isAllowed(allowed, i) && (best < 0 || values[i] > values[best])) best = i;
  if (best < 0) throw nothingAllowed();
  return best;
}

/** Most likely first; ties by lower id. */
function byLikelihood(logp: Float64Array): (a: number, b: number) => number {
  return (a, b) => logp[b] - logp[a] || a - b;
}

/** The k most likely of `ids`, most likely first, kept in a min-heap while scanning (O(n log k)). */
function mostLikely(ids: readonly number[], logp: Float64Array, k: number): number[] {
  const order = byLikelihood(logp);
  const heap: number[] = []; // heap[0] is the least likely kept
  const swap = (i: number, j: number) => ([heap[i], heap[j]] = [heap[j], heap[i]]);
  for (const id of ids) {
    if (heap.length < k) {
      heap.push(id);
      for (let i = heap.length - 1; i > 0 && order(heap[i], heap[(i - 1) >> 1]) > 0; i = (i - 1) >> 1) swap(i, (i - 1) >> 1);
    } else if (order(id, heap[0]) < 0) {
      heap[0] = id;
      for (let i = 0; ; ) {
        const [l, r] = [2 * i + 1, 2 * i + 2];
        let worst = i;
        if (l < k && order(heap[l], heap[worst]) > 0) worst = l;
        if (r < k && order(heap[r], heap[worst]) > 0) worst = r;
        if (worst === i) break;
        swap(i, worst);
        i = worst;
      }
    }
  }
  return heap.sort(order);
}

/**
 * The ids that can be in the nucleus of probability `mass`, most likely first: those above a cut
 * that falls from the top until they hold the mass. Every id left out is less likely than every id
 * kept, so the nucleus, a prefix of the likelihood order, lies inside; a peaked 150k distribution
 * sorts a few dozen ids instead of all of them.
 */
function nucleusCandidates(ids: number[], logp: Float64Array, mass: number): number[] {
  let top = -Infinity;
  for (const id of ids) top = Math.max(top, logp[id]);
  for (let cut = top - NUCLEUS_STEP; ; cut -= NUCLEUS_STEP) {
    const above = ids.filter((id) => logp[id] >= cut);
    let held = 0;
    for (const id of above) held += Math.exp(logp[id]);
    if (held >= mass || above.length === ids.length) return above.sort(byLikelihood(logp));
  }
}

/** Nats the cut falls per try: each try admits ids up to e^8 (~3000) times less likely than the last cut. */
const NUCLEUS_STEP = 8;

/** The error when a token mask allows no id (the GPU sampler's too). */
export function nothingAllowed(): BatonError {
  return new BatonError({ code: 'data/invalid', message: 'The token mask allows no token at this step; the constraint should have ended the text before.' });
}

function invalid(message: string): BatonError {
  return new BatonError({ code: 'run/config', message });
}

/**
 * A token drawn from softmax(z / temperature) over the whole vocabulary, by walking the ids in order
 * with one uniform draw u: three passes, no sort and no allocation (GRPO's plain sampling, once per
 * completion per step on a 150k vocabulary).
 */
function drawFromSoftmax(logits: Float32Array, temperature: number, u: number): Sampled {
  const inv = 1 / temperature;
  const { lse, max, sum } = logSumExp(logits, inv);
  let left = u * sum;
  let token = logits.length - 1;
  for (let i = 0; i < logits.length; i++) {
    left -= Math.exp(logits[i] * inv - max);
    if (left < 0) {
      token = i;
      break;
    }
  }
  return { token, logprob: logits[token] * inv - lse };
}

export function createSampler(options: SamplingOptions = {}): Sampler {
  const { temperature = 0, topK = 0, topP = 1, seed = 0 } = options;
  if (!(temperature >= 0)) throw invalid(`temperature must be 0 (greedy) or positive, got ${temperature}.`);
  if (!Number.isInteger(topK) || topK < 0) throw invalid(`top-k must be a non-negative integer, got ${topK}.`);
  if (!(topP > 0 && topP <= 1)) throw invalid(`top-p must be in (0, 1], got ${topP}.`);
  if (temperature === 0) {
    return (logits, allowed) => {
      const token = argmax(logits, allowed);
      return { token, logprob: logits[token] - logSumExp(logits, 1).lse };
    };
  }
  const uniform = seededRandom(seed);
  const plain = topK === 0 && topP === 1;
  return (logits, allowed) => {
    if (plain && !allowed) return drawFromSoftmax(logits, temperature, uniform());
    const logp = logSoftmax(logits, temperature);
    let order = Array.from(logp.keys());
    if (allowed) order = order.filter((id) => isAllowed(allowed, id));
    if (order.length === 0) throw nothingAllowed();
    // The nucleus is taken from the distribution renormalised over the allowed tokens.
    let allowedMass = 1;
    if (allowed && topP < 1) allowedMass = order.reduce((sum, i) => sum + Math.exp(logp[i]), 0);
    // Sorting a 150k vocabulary costs more than a GPU decode step: only truncation needs the order,
    // and top-k only the k best.
    if (topK > 0) order = mostLikely(order, logp, topK);
    else if (topP < 1) order = nucleusCandidates(order, logp, topP * allowedMass);
    if (topP < 1) {
      const target = topP * allowedMass;
      let mass = 0;
      let keep = 0;
      while (keep < order.length && mass < target) mass += Math.exp(logp[order[keep++]]);
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

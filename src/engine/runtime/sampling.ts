/**
 * Choosing the next token from one row of logits, on the CPU in float64: greedy (temperature 0),
 * or seeded sampling from softmax(z / temperature) restricted to the top-k and then to the top-p
 * nucleus. The logprob returned with each token is log softmax(z / temperature)[token] over the
 * whole vocabulary (temperature 1 for greedy), which is what GRPO's loss recomputes.
 * An `allowed` bitmask (format-constrained sampling) limits which tokens may be drawn; top-k and
 * top-p then apply among the allowed ones, and the logprob is still the unmasked one above.
 * The definition kernels/sample-tokens.ts implements on the GPU: the kept ids are the allowed ids
 * whose logit is at or above a floor, and the draw walks them in id order with one uniform u.
 * - top-k: the floor is the k-th largest allowed logit (ties at it kept, as Hugging Face's
 *   TopKLogitsWarper keeps them);
 * - top-p: the floor is the largest logit L for which the ids at or above it hold at least p of the
 *   allowed mass (the smallest likelihood prefix holding p, ties at L kept);
 * - both: top-k first, then top-p within the top-k, its mass renormalised over them.
 * Walking in id order rather than most likely first draws from the same distribution; only which
 * u gives which token differs, and it needs no sort on the GPU.
 */
import { BatonError } from '../../core/errors/index.ts';
import { seededRandom } from '../../core/random.ts';

export interface SamplingOptions {
  /** 0 (the default) is greedy. */
  temperature?: number;
  /** Keep the k most likely tokens (and those tied with the k-th); 0 or undefined keeps all. */
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
type Sampler = (logits: Float32Array, allowed?: Uint32Array) => Sampled;

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

/** The logits of the allowed ids. */
function allowedLogits(logits: Float32Array, allowed: Uint32Array | undefined): Float32Array {
  if (!allowed) return logits.slice();
  const out = new Float32Array(logits.length);
  let n = 0;
  for (let i = 0; i < logits.length; i++) if (isAllowed(allowed, i)) out[n++] = logits[i];
  return out.subarray(0, n);
}

/**
 * The k-th largest allowed logit (-Infinity when k reaches the allowed count: all are kept), by a
 * three-way quickselect on a copy: O(V), where sorting a 150k vocabulary would cost more than a GPU
 * decode step.
 */
function kthLargest(logits: Float32Array, allowed: Uint32Array | undefined, k: number): number {
  const values = allowedLogits(logits, allowed);
  if (k >= values.length) return -Infinity;
  const swap = (a: number, b: number) => ([values[a], values[b]] = [values[b], values[a]]);
  let [lo, hi, rank] = [0, values.length, k - 1]; // rank among values[lo, hi), largest first
  for (;;) {
    const pivot = values[(lo + hi) >>> 1];
    // [lo, gt) > pivot, [gt, i) == pivot, [lt, hi) < pivot
    let [gt, i, lt] = [lo, lo, hi];
    while (i < lt) {
      if (values[i] > pivot) swap(i++, gt++);
      else if (values[i] < pivot) swap(i, --lt);
      else i++;
    }
    if (rank < gt - lo) hi = gt;
    else if (rank < lt - lo) return pivot;
    else [rank, lo] = [rank - (lt - lo), lt];
  }
}

/**
 * The largest logit L such that the allowed ids with logits >= max(L, floor) hold at least `p` of the
 * mass of those >= floor (the smallest likelihood prefix holding p, ties at L kept). The cut falls
 * from the top until the ids above it hold the mass; only those are sorted: a peaked 150k
 * distribution sorts a few dozen ids instead of all of them.
 */
function nucleusFloor(logits: Float32Array, allowed: Uint32Array | undefined, floor: number, inv: number, p: number): number {
  const ids: number[] = [];
  let top = -Infinity;
  for (let i = 0; i < logits.length; i++) {
    if (logits[i] >= floor && isAllowed(allowed, i)) {
      ids.push(i);
      top = Math.max(top, logits[i] * inv);
    }
  }
  if (ids.length === 0) throw nothingAllowed();
  const mass = (id: number) => Math.exp(logits[id] * inv - top);
  let target = 0;
  for (const id of ids) target += mass(id);
  target *= p;
  for (let cut = top - NUCLEUS_STEP; ; cut -= NUCLEUS_STEP) {
    const above = ids.filter((id) => logits[id] * inv >= cut);
    let held = 0;
    for (const id of above) held += mass(id);
    if (held < target && above.length < ids.length) continue;
    above.sort((a, b) => logits[b] - logits[a]);
    held = 0;
    for (const id of above) {
      held += mass(id);
      if (held >= target) return logits[id];
    }
    return logits[above[above.length - 1]];
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
 * A token drawn from softmax(z / temperature) restricted to the allowed ids with logits >= floor, by
 * walking them in id order with one uniform draw u: three passes, no sort and no allocation (GRPO's
 * plain sampling, once per completion per step on a 150k vocabulary). Past the end through rounding,
 * the last kept id.
 */
function drawAbove(logits: Float32Array, allowed: Uint32Array | undefined, floor: number, inv: number, u: number): Sampled {
  let max = -Infinity;
  for (let i = 0; i < logits.length; i++) max = Math.max(max, logits[i] * inv);
  const everyId = floor === -Infinity && !allowed; // GRPO's plain sampling: no test per id
  const kept = (i: number) => everyId || (logits[i] >= floor && isAllowed(allowed, i));
  let sum = 0;
  let total = 0;
  let token = -1;
  for (let i = 0; i < logits.length; i++) {
    const e = Math.exp(logits[i] * inv - max);
    sum += e;
    if (kept(i)) {
      total += e;
      token = i;
    }
  }
  if (token < 0) throw nothingAllowed();
  let left = u * total;
  for (let i = 0; i < logits.length; i++) {
    if (!kept(i)) continue;
    left -= Math.exp(logits[i] * inv - max);
    if (left < 0) {
      token = i;
      break;
    }
  }
  return { token, logprob: logits[token] * inv - max - Math.log(sum) };
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
  const inv = 1 / temperature;
  return (logits, allowed) => {
    let floor = -Infinity;
    if (topK > 0) floor = kthLargest(logits, allowed, topK);
    if (topP < 1) floor = nucleusFloor(logits, allowed, floor, inv, topP);
    return drawAbove(logits, allowed, floor, inv, uniform());
  };
}

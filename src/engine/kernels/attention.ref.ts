/**
 * Float64 reference of causal grouped-query attention, forward and backward: the specification
 * attention.ts and attention-backward.ts are ports of, and what their tests check them against. Plain
 * loops, row-major; dimension letters as in ../runtime/forward.ref.ts. With a visibility rule
 * (attention-visibility.ts) it is the attention of a packed training pass, each row seeing its shared
 * prompt and its own segment.
 */
import { VISIBILITY_WIDTH } from './attention-visibility.ts';
import type { Vec } from './ref-types.ts';

export interface AttentionShape {
  T: number; // queries in this call
  S: number; // keys: the cached ones (a prefix, such as a shared prompt) followed by this call's
  H: number;
  KV: number;
  D: number;
  /** A packed pass's (T, 4) rule (packedVisibility), with S = T: which keys each row sees instead of the causal ones. */
  visibility?: ArrayLike<number>;
}

interface AttentionForward {
  out: Float64Array; // (T, H, D)
  /** log sum_s exp(score_s) of each (query, head) row over its visible scaled scores: what the backward rebuilds softmax from. */
  lse: Float64Array; // (T, H)
}

interface AttentionGradients {
  dq: Float64Array; // (T, H, D)
  dk: Float64Array; // (S, KV, D), every key, prefix included: the caller decides which are trainable
  dv: Float64Array; // (S, KV, D)
}

/**
 * The keys query row t sees: 0 ..= S - T + t (causal), or with a visibility rule its prefix
 * (prefixStart .. prefixEnd - 1) and its own segment up to itself (segmentStart ..= t).
 */
function visibleKeys(t: number, { T, S, visibility }: AttentionShape): number[] {
  const range = (from: number, to: number) => Array.from({ length: Math.max(0, to - from) }, (_, i) => from + i);
  if (!visibility) return range(0, S - T + t + 1);
  const [prefixStart, prefixEnd, segmentStart] = [0, 1, 2].map((i) => visibility[t * VISIBILITY_WIDTH + i]);
  return [...range(prefixStart, prefixEnd), ...range(segmentStart, t + 1)];
}

/**
 * Softmax of query row (t, h) over the keys it sees (`keys`), written into `probs` at those keys;
 * returns the row's log-sum-exp of scaled scores.
 */
function softmaxRow(q: Vec, k: Vec, t: number, h: number, keys: readonly number[], { H, KV, D }: AttentionShape, probs: Float64Array): number {
  const kh = Math.floor(h / (H / KV));
  const scale = 1 / Math.sqrt(D);
  let max = -Infinity;
  for (const s of keys) {
    let dot = 0;
    for (let d = 0; d < D; d++) dot += q[(t * H + h) * D + d] * k[(s * KV + kh) * D + d];
    probs[s] = dot * scale;
    max = Math.max(max, probs[s]);
  }
  let sum = 0;
  for (const s of keys) sum += probs[s] = Math.exp(probs[s] - max);
  for (const s of keys) probs[s] /= sum;
  return max + Math.log(sum);
}

/**
 * Causal scaled dot-product attention with grouped-query heads (query head h reads kv head
 * floor(h / (H / KV))). q (T, H, D); k, v (S, KV, D). Query t sits at position S - T + t and sees
 * keys 0 ..= S - T + t, or those of its visibility rule.
 */
export function attentionForwardRef(q: Vec, k: Vec, v: Vec, shape: AttentionShape): AttentionForward {
  const { T, S, H, KV, D } = shape;
  const out = new Float64Array(T * H * D);
  const lse = new Float64Array(T * H);
  const probs = new Float64Array(S);
  for (let t = 0; t < T; t++) {
    const keys = visibleKeys(t, shape);
    for (let h = 0; h < H; h++) {
      const kh = Math.floor(h / (H / KV));
      lse[t * H + h] = softmaxRow(q, k, t, h, keys, shape, probs);
      for (const s of keys) {
        for (let d = 0; d < D; d++) out[(t * H + h) * D + d] += probs[s] * v[(s * KV + kh) * D + d];
      }
    }
  }
  return { out, lse };
}

/** attentionForwardRef's output alone (T, H, D): what inference needs. */
export function attentionRef(q: Vec, k: Vec, v: Vec, shape: AttentionShape): Float64Array {
  return attentionForwardRef(q, k, v, shape).out;
}

/**
 * Gradients of attentionForwardRef's out given dout (T, H, D). With P the softmax row, per (t, h):
 * dP_s = dout . v_s; dS_s = P_s (dP_s - sum_r P_r dP_r); dq += scale dS_s k_s; dk_s += scale dS_s q;
 * dv_s += P_s dout. Query heads of one group add into their shared kv head's dk, dv.
 */
export function attentionBackwardRef(dout: Vec, q: Vec, k: Vec, v: Vec, shape: AttentionShape): AttentionGradients {
  const { T, S, H, KV, D } = shape;
  const scale = 1 / Math.sqrt(D);
  const dq = new Float64Array(T * H * D);
  const dk = new Float64Array(S * KV * D);
  const dv = new Float64Array(S * KV * D);
  const probs = new Float64Array(S);
  const dprobs = new Float64Array(S);
  for (let t = 0; t < T; t++) {
    const keys = visibleKeys(t, shape);
    for (let h = 0; h < H; h++) {
      const kh = Math.floor(h / (H / KV));
      const row = (t * H + h) * D;
      softmaxRow(q, k, t, h, keys, shape, probs);
      let expected = 0; // sum_r P_r dP_r
      for (const s of keys) {
        let dot = 0;
        for (let d = 0; d < D; d++) dot += dout[row + d] * v[(s * KV + kh) * D + d];
        dprobs[s] = dot;
        expected += probs[s] * dot;
      }
      for (const s of keys) {
        const dscore = probs[s] * (dprobs[s] - expected) * scale;
        const kv = (s * KV + kh) * D;
        for (let d = 0; d < D; d++) {
          dq[row + d] += dscore * k[kv + d];
          dk[kv + d] += dscore * q[row + d];
          dv[kv + d] += probs[s] * dout[row + d];
        }
      }
    }
  }
  return { dq, dk, dv };
}

/**
 * Float64 reference of causal grouped-query attention: the specification attention.ts is a port of, and
 * what its tests check it against. Plain loops, row-major; dimension letters as in
 * ../runtime/forward.ref.ts.
 */
import type { Vec } from './ref-types.ts';

export interface AttentionShape {
  T: number; // queries in this call
  S: number; // keys: the cached ones followed by this call's
  H: number;
  KV: number;
  D: number;
}

/**
 * Causal scaled dot-product attention with grouped-query heads (query head h reads kv head
 * floor(h / (H / KV))). q (T, H, D); k, v (S, KV, D). Query t sits at position S - T + t and sees
 * keys 0 ..= S - T + t. Returns (T, H, D).
 */
export function attentionRef(q: Vec, k: Vec, v: Vec, { T, S, H, KV, D }: AttentionShape): Float64Array {
  const out = new Float64Array(T * H * D);
  const group = H / KV;
  const scale = 1 / Math.sqrt(D);
  const scores = new Float64Array(S);
  for (let t = 0; t < T; t++) {
    const last = S - T + t;
    for (let h = 0; h < H; h++) {
      const kh = Math.floor(h / group);
      let max = -Infinity;
      for (let s = 0; s <= last; s++) {
        let dot = 0;
        for (let d = 0; d < D; d++) dot += q[(t * H + h) * D + d] * k[(s * KV + kh) * D + d];
        scores[s] = dot * scale;
        max = Math.max(max, scores[s]);
      }
      let sum = 0;
      for (let s = 0; s <= last; s++) sum += scores[s] = Math.exp(scores[s] - max);
      for (let s = 0; s <= last; s++) {
        const p = scores[s] / sum;
        for (let d = 0; d < D; d++) out[(t * H + h) * D + d] += p * v[(s * KV + kh) * D + d];
      }
    }
  }
  return out;
}

/**
 * Float64 reference of attention-decode.ts, composed from the references it fuses: matmulNormedRef (the
 * input norm and the concatenated q/k/v projection), ropeRef, and attentionRef over each row's cached keys
 * and values followed by its new ones.
 */
import { attentionRef } from './attention.ref.ts';
import { matmulNormedRef } from './matmul-normed.ref.ts';
import type { Vec } from './ref-types.ts';
import { ropeRef } from './rope.ref.ts';

interface AttentionDecodeShape {
  M: number; // rows, each the next token of its own sequence
  K: number; // hidden size
  H: number;
  KV: number;
  D: number;
  startPos: number; // tokens each sequence's cache holds; the new token's position
  eps: number;
}

interface AttentionDecodeRef {
  out: Float64Array; // (M, H, D)
  k: Float64Array; // (M, KV, D) the new keys, rotated: what the cache gains at startPos
  v: Float64Array; // (M, KV, D)
}

/**
 * x (M, K); g (K) the norm weight; w (H D + 2 KV D, K) the q, k and v rows; bias (H D + 2 KV D) or undefined;
 * cached[m] = { k, v } (startPos, KV, D) of row m's sequence.
 */
export function attentionDecodeRef(
  x: Vec,
  g: Vec,
  w: Vec,
  bias: Vec | undefined,
  invFreq: Vec,
  cached: readonly { k: Vec; v: Vec }[],
  shape: AttentionDecodeShape,
): AttentionDecodeRef {
  const { M, K, H, KV, D, startPos, eps } = shape;
  const [Nq, Nkv] = [H * D, KV * D];
  const rows = Nq + 2 * Nkv;
  const y = matmulNormedRef(x, g, w, bias, M, K, rows, eps);
  const out = new Float64Array(M * Nq);
  const k = new Float64Array(M * Nkv);
  const v = new Float64Array(M * Nkv);
  for (let m = 0; m < M; m++) {
    const at = m * rows;
    const q = ropeRef(y.subarray(at, at + Nq), 1, H, D, invFreq, startPos);
    k.set(ropeRef(y.subarray(at + Nq, at + Nq + Nkv), 1, KV, D, invFreq, startPos), m * Nkv);
    v.set(y.subarray(at + Nq + Nkv, at + rows), m * Nkv);
    const keys = new Float64Array((startPos + 1) * Nkv);
    const values = new Float64Array((startPos + 1) * Nkv);
    keys.set(Float64Array.from(cached[m].k).subarray(0, startPos * Nkv));
    values.set(Float64Array.from(cached[m].v).subarray(0, startPos * Nkv));
    keys.set(k.subarray(m * Nkv, (m + 1) * Nkv), startPos * Nkv);
    values.set(v.subarray(m * Nkv, (m + 1) * Nkv), startPos * Nkv);
    out.set(attentionRef(q, keys, values, { T: 1, S: startPos + 1, H, KV, D }), m * Nq);
  }
  return { out, k, v };
}

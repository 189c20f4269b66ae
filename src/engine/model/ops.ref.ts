/**
 * Float64 references for each operation of the forward pass, in plain loops: the specification the
 * WGSL kernels are ported from and checked against. Semantics are those of Hugging Face transformers'
 * Qwen2/Qwen3/Llama modeling code. Row-major throughout; dimension letters:
 *   T tokens in this call, S keys in the cache (past + current), C hidden, H query heads,
 *   KV key/value heads, D head size, I MLP size, V vocabulary.
 */

export type Vec = ArrayLike<number>;

/** y = x / sqrt(mean(x^2) + eps) * w, per row. x (rows, dim), w (dim). */
export function rmsnormRef(x: Vec, weight: Vec, rows: number, dim: number, eps: number): Float64Array {
  const y = new Float64Array(rows * dim);
  for (let r = 0; r < rows; r++) {
    let ss = 0;
    for (let i = 0; i < dim; i++) ss += x[r * dim + i] ** 2;
    const inv = 1 / Math.sqrt(ss / dim + eps);
    for (let i = 0; i < dim; i++) y[r * dim + i] = x[r * dim + i] * inv * weight[i];
  }
  return y;
}

/** y = x W^T + b. x (T, in), W (out, in) as HF stores nn.Linear, b (out) or undefined. */
export function matmulRef(x: Vec, w: Vec, bias: Vec | undefined, T: number, inF: number, outF: number): Float64Array {
  const y = new Float64Array(T * outF);
  for (let t = 0; t < T; t++) {
    for (let o = 0; o < outF; o++) {
      let s = bias ? bias[o] : 0;
      for (let i = 0; i < inF; i++) s += x[t * inF + i] * w[o * inF + i];
      y[t * outF + o] = s;
    }
  }
  return y;
}

/**
 * Rotary embedding in HF's rotate-half layout: dimension i pairs with i + D/2.
 * x (T, heads, D); token t sits at position startPos + t; invFreq (D/2) from ropeInvFreq.
 */
export function ropeRef(x: Vec, T: number, heads: number, D: number, invFreq: Vec, startPos = 0): Float64Array {
  const y = new Float64Array(T * heads * D);
  const half = D / 2;
  for (let t = 0; t < T; t++) {
    for (let i = 0; i < half; i++) {
      const angle = (startPos + t) * invFreq[i];
      const cos = Math.cos(angle);
      const sin = Math.sin(angle);
      for (let h = 0; h < heads; h++) {
        const base = (t * heads + h) * D;
        const a = x[base + i];
        const b = x[base + i + half];
        y[base + i] = a * cos - b * sin;
        y[base + i + half] = b * cos + a * sin;
      }
    }
  }
  return y;
}

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

/** silu(gate) * up, elementwise; silu(g) = g / (1 + e^-g). */
export function swigluRef(gate: Vec, up: Vec): Float64Array {
  const y = new Float64Array(gate.length);
  for (let i = 0; i < gate.length; i++) y[i] = (gate[i] / (1 + Math.exp(-gate[i]))) * up[i];
  return y;
}

/** Rows of table (V, C) for each id. */
export function embeddingRef(table: Vec, ids: readonly number[], C: number): Float64Array {
  const y = new Float64Array(ids.length * C);
  ids.forEach((id, t) => {
    for (let i = 0; i < C; i++) y[t * C + i] = table[id * C + i];
  });
  return y;
}

/** log softmax of each row of x (rows, cols), max-subtracted. */
export function logSoftmaxRef(x: Vec, rows: number, cols: number): Float64Array {
  const y = new Float64Array(rows * cols);
  for (let r = 0; r < rows; r++) {
    let max = -Infinity;
    for (let c = 0; c < cols; c++) max = Math.max(max, x[r * cols + c]);
    let sum = 0;
    for (let c = 0; c < cols; c++) sum += Math.exp(x[r * cols + c] - max);
    const lse = max + Math.log(sum);
    for (let c = 0; c < cols; c++) y[r * cols + c] = x[r * cols + c] - lse;
  }
  return y;
}

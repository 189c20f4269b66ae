/**
 * Float64 reference of log-softmax at a temperature, the log-probability of a chosen token, its
 * backward and the entropy: the specification logprobs.ts is a port of, and what its tests check it
 * against. Plain loops, row-major; dimension letters as in ../runtime/forward.ref.ts.
 */
import type { Vec } from './ref-types.ts';

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

/** log softmax(logits / temperature) of each row (R, V): GRPO divides logits by the sampling temperature. */
function tempered(logits: Vec, R: number, V: number, temperature: number): Float64Array {
  return logSoftmaxRef(
    Float64Array.from(logits, (z) => z / temperature),
    R,
    V,
  );
}

/** logp (R) of each row's target token under softmax(logits / temperature); logits (R, V). */
export function logprobsRef(logits: Vec, targets: readonly number[], R: number, V: number, temperature: number): Float64Array {
  const logp = tempered(logits, R, V, temperature);
  return Float64Array.from({ length: R }, (_, r) => logp[r * V + targets[r]]);
}

/**
 * Backward of logprobsRef given dLogp (R): with p = softmax(logits / T) per row,
 * dLogits[r, v] = dLogp[r] * ([v == target] - p[v]) / T.
 */
export function logprobsBackwardRef(logits: Vec, targets: readonly number[], dLogp: Vec, R: number, V: number, temperature: number): Float64Array {
  const logp = tempered(logits, R, V, temperature);
  const dLogits = new Float64Array(R * V);
  for (let r = 0; r < R; r++) {
    for (let v = 0; v < V; v++) {
      const onehot = v === targets[r] ? 1 : 0;
      dLogits[r * V + v] = (dLogp[r] * (onehot - Math.exp(logp[r * V + v]))) / temperature;
    }
  }
  return dLogits;
}

/** Entropy -sum_v p log p (nats) of softmax(logits / temperature) per row (R): a GRPO metric. */
export function entropyRef(logits: Vec, R: number, V: number, temperature: number): Float64Array {
  const logp = tempered(logits, R, V, temperature);
  const entropy = new Float64Array(R);
  for (let r = 0; r < R; r++) {
    for (let v = 0; v < V; v++) entropy[r] -= Math.exp(logp[r * V + v]) * logp[r * V + v];
  }
  return entropy;
}

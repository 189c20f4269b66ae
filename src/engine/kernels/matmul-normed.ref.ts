/**
 * Float64 references of matmul-normed.ts: the RMSNorm and the matmul after it, composed from
 * rmsnormRef and matmulRef (the split epilogue is a slice of matmulNormedRef's columns).
 */
import { matmulRef } from './matmul.ref.ts';
import type { Vec } from './ref-types.ts';
import { rmsnormRef } from './rmsnorm.ref.ts';
import { swigluRef } from './swiglu.ref.ts';

/** rmsnorm(x; g) W^T + b: x (M, K), g (K), w (N, K), b (N). */
export function matmulNormedRef(x: Vec, g: Vec, w: Vec, bias: Vec | undefined, M: number, K: number, N: number, eps: number): Float64Array {
  return matmulRef(rmsnormRef(x, g, M, K, eps), w, bias, M, K, N);
}

/** silu(gate) * up with [gate | up] = rmsnorm(x; g) W^T, w (2N, K) the gate rows then the up rows; (M, N). */
export function matmulNormedSwigluRef(x: Vec, g: Vec, w: Vec, M: number, K: number, N: number, eps: number): Float64Array {
  const y = matmulNormedRef(x, g, w, undefined, M, K, 2 * N, eps);
  const gate = new Float64Array(M * N);
  const up = new Float64Array(M * N);
  for (let m = 0; m < M; m++) {
    gate.set(y.subarray(m * 2 * N, m * 2 * N + N), m * N);
    up.set(y.subarray(m * 2 * N + N, (m + 1) * 2 * N), m * N);
  }
  return swigluRef(gate, up);
}

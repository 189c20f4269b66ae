/**
 * Backward of the linear layer (matmul.ts), ports of matmulBackwardInputRef and matmulBackwardWeightRef
 * in matmul.ref.ts, written with GEMM letters: an (M, N) result reduced over K.
 *   matmulBackwardInput:  dx[m, col0 + n] (+)= alpha * sum_k dy[m, dyCol0 + k] * w[k, n]
 *     dx (M, ldo) = dy (M, K) W (K, N): N = in features, K = out features of this W chunk.
 *   matmulBackwardWeight: dw[m, col0 + n] (+)= alpha * sum_k dy[k, dyCol0 + m] * x[k, n]
 *     dw (M, ldo) = dy^T (M, K) x (K, N): M = out features of this chunk, N = in features, K = tokens.
 *   matmulBackwardBias:   db[n] (+)= sum_t dy[t, dyCol0 + n]
 * dy is (tokens, ldy); dyCol0 picks the columns of one W row chunk (its rowStart), so a weight split
 * in row chunks runs one dispatch per chunk, the input gradient accumulating over them. `alpha` and
 * `accumulate` let LoRA's path (alpha = lora scale) and the frozen base add into one dx, and
 * gradients accumulate over micro-batches. A LoRA layer's backward is four of these: dB = s dy^T xA,
 * dxA = s dy B, dA = dxA^T x, dx += dxA A.
 *
 * Both matmuls use matmulMain's threads (one result column n per `lanes` threads, a block of
 * `rowsPerThread` result rows, lanes splitting the reduction): each w[k, n] or x[k, n] is loaded once
 * per row block, and neighbouring threads read neighbouring n (coalesced), while dy is the same for
 * every thread of a workgroup. lanes = 1 keeps reads coalesced on a GPU too. The int4 input gradient
 * is in matmul-int4.ts. Grid as matmulForward's: (ceil(N / (64 / lanes)) folded, ceil(M / rowsPerThread)).
 */
import type { UniformSpec, KernelSpec } from '../device/index.ts';
import { MATMUL_UNIFORMS, matmulGrid, matmulMain, type MatmulLayout, type MatmulUniform } from './matmul.ts';
import { columnSumGrid, columnSumMain, header, type Dtype } from './wgsl.ts';

export type MatmulBackwardUniform = MatmulUniform | 'ldy' | 'dyCol0';

/** MATMUL_UNIFORMS with dy's row stride and first column. */
export const MATMUL_BACKWARD_UNIFORMS: readonly UniformSpec<MatmulBackwardUniform>[] = [
  ...MATMUL_UNIFORMS,
  { name: 'ldy', type: 'u32' },
  { name: 'dyCol0', type: 'u32' },
];

export interface MatmulBackwardOptions extends MatmulLayout {
  readonly accumulate: boolean;
}

/**
 * The reduction loop of matmulBackwardInput around `weight`, a WGSL f32 expression of w[k, n]:
 * shared by every weight format.
 */
export function backwardInputLoop(weight: string): string {
  return `for (var k = lane; k < p.K; k += LANES) {
    let wv = ${weight};
    for (var r = 0u; r < ROWS; r++) { if (r < rows) { acc[r] += dy[(m0 + r) * p.ldy + p.dyCol0 + k] * wv; } }
  }`;
}

export const matmulBackwardInput: KernelSpec<MatmulBackwardOptions & { readonly dtype: Dtype }, 'dy' | 'w' | 'dx', MatmulBackwardUniform> = {
  name: 'matmulBackwardInput',
  bindings: [
    { name: 'dy', access: 'read' }, // (M, ldy) f32
    { name: 'w', access: 'read' }, // (K, N) weights
    { name: 'dx', access: 'read_write' }, // (M, ldo) f32
  ],
  uniforms: MATMUL_BACKWARD_UNIFORMS,
  wgsl: (o) => `${header(matmulBackwardInput, { dy: 'f32', w: o.dtype, dx: 'f32' }, o.dtype)}
${matmulMain({ o: { ...o, bias: false }, acc: 'f32', loop: backwardInputLoop('f32(w[k * p.N + n])'), output: 'dx' })}`,
  grid: matmulGrid,
};

export const matmulBackwardWeight: KernelSpec<MatmulBackwardOptions, 'dy' | 'x' | 'dw', MatmulBackwardUniform> = {
  name: 'matmulBackwardWeight',
  bindings: [
    { name: 'dy', access: 'read' }, // (K, ldy) f32
    { name: 'x', access: 'read' }, // (K, N) f32, the layer's input
    { name: 'dw', access: 'read_write' }, // (M, ldo) f32
  ],
  uniforms: MATMUL_BACKWARD_UNIFORMS,
  wgsl: (o) => {
    const loop = `for (var k = lane; k < p.K; k += LANES) {
    let xv = x[k * p.N + n];
    for (var r = 0u; r < ROWS; r++) { if (r < rows) { acc[r] += dy[k * p.ldy + p.dyCol0 + m0 + r] * xv; } }
  }`;
    return `${header(matmulBackwardWeight, { dy: 'f32', x: 'f32', dw: 'f32' })}
${matmulMain({ o: { ...o, bias: false }, acc: 'f32', loop, output: 'dw' })}`;
  },
  grid: matmulGrid,
};

/** db (N) (+)= sums over T tokens of dy's columns dyCol0 .. dyCol0 + N - 1 (wgsl.ts columnSumMain). */
export const matmulBackwardBias: KernelSpec<{ readonly accumulate: boolean }, 'dy' | 'db', 'T' | 'N' | 'ldy' | 'dyCol0'> = {
  name: 'matmulBackwardBias',
  bindings: [
    { name: 'dy', access: 'read' }, // (T, ldy) f32
    { name: 'db', access: 'read_write' }, // (N) f32
  ],
  uniforms: [
    { name: 'T', type: 'u32' },
    { name: 'N', type: 'u32' },
    { name: 'ldy', type: 'u32' },
    { name: 'dyCol0', type: 'u32' },
  ],
  wgsl: (o) => `${header(matmulBackwardBias, { dy: 'f32', db: 'f32' })}
${columnSumMain({ term: 'dy[r * p.ldy + p.dyCol0 + c]', rows: 'p.T', columns: 'p.N', out: 'db', accumulate: o.accumulate })}`,
  grid: (u) => columnSumGrid(u.N),
};

/**
 * Linear-layer matmul, a port of matmulRef in model/ops.ref.ts, for prefill and decode alike:
 *   out[m, col0 + n] (+)= alpha * sum_k x[m, k] * w[n, k] + b[col0 + n]      m < M, n < N
 * x (M, K) f32, w (N, K) in the weight dtype, out (M, ldo) f32. `ldo` and `col0` let a weight split
 * in row chunks write its slice of the output columns (the bias covers the whole weight);
 * `accumulate` adds into out (the residual stream, or a LoRA delta onto its projection).
 *
 * One thread per output column n and block of `rowsPerThread` rows: each weight value is loaded
 * once per block and used for every row of it, with no workgroup barriers. Measured on SwiftShader
 * (bench figures in the engine report): a 16x16 shared-memory tiled kernel was 6-17x slower, and
 * one workgroup per output with a tree reduction ~40x slower on a 151,936-row LM head, because
 * barriers cost there as much as short dot products. Decode uses rowsPerThread 1. With K % 4 == 0
 * the `vec4` variant loads four values at a time (4-5x faster on the LM head matvec there).
 * Grid: (ceil(N / 64) folded into 2-D, ceil(M / rowsPerThread)).
 */
import type { BindingSpec, KernelSpec, UniformSpec } from '../device/index.ts';
import { ceilDiv, grid2d, header, type Dtype } from './wgsl.ts';

const WG = 64;

export interface MatmulOptions {
  readonly dtype: Dtype;
  readonly bias: boolean;
  readonly accumulate: boolean;
  /** Rows of x each thread computes (1..MAX_ROWS_PER_THREAD). */
  readonly rowsPerThread: number;
  /** Load x and w four values at a time; needs K % 4 == 0 (4-5x faster on SwiftShader's matvec). */
  readonly vec4: boolean;
}

/** More accumulators than this spill out of registers on common GPUs. */
export const MAX_ROWS_PER_THREAD = 8;

type MatmulBinding = 'x' | 'w' | 'b' | 'out';
export type MatmulUniform = 'M' | 'N' | 'K' | 'ldo' | 'col0' | 'alpha';

const BINDINGS: readonly BindingSpec<MatmulBinding>[] = [
  { name: 'x', access: 'read' }, // (M, K) f32
  { name: 'w', access: 'read' }, // (N, K) weights
  { name: 'b', access: 'read' }, // (col0 + N) weights; bound but unread without the bias option
  { name: 'out', access: 'read_write' }, // (M, ldo) f32
];

/** out[m, col0 + n] (=|+=) alpha * x[m] . w[n] (+ b): shared by every weight format's matmul. */
export const MATMUL_UNIFORMS: readonly UniformSpec<MatmulUniform>[] = [
  { name: 'M', type: 'u32' },
  { name: 'N', type: 'u32' },
  { name: 'K', type: 'u32' },
  { name: 'ldo', type: 'u32' },
  { name: 'col0', type: 'u32' },
  { name: 'alpha', type: 'f32' },
];

export const matmulForward: KernelSpec<MatmulOptions, MatmulBinding, MatmulUniform> = {
  name: 'matmulForward',
  bindings: BINDINGS,
  uniforms: MATMUL_UNIFORMS,
  wgsl: (o) => {
    const R = o.rowsPerThread;
    const value = `p.alpha * ${o.vec4 ? 'dot(acc[r], vec4<f32>(1.0))' : 'acc[r]'}${o.bias ? ' + f32(b[p.col0 + n])' : ''}`;
    const store = o.accumulate ? `out[i] += ${value};` : `out[i] = ${value};`;
    const types = o.vec4 ? { x: 'vec4<f32>', w: `vec4<${o.dtype}>`, b: o.dtype, out: 'f32' } : { x: 'f32', w: o.dtype, b: o.dtype, out: 'f32' };
    const loop = o.vec4
      ? `let K4 = p.K / 4u;
  var acc: array<vec4<f32>, ${R}>;
  for (var k = 0u; k < K4; k++) {
    let wv = vec4<f32>(w[n * K4 + k]);
    for (var r = 0u; r < rows; r++) { acc[r] += x[(m0 + r) * K4 + k] * wv; }
  }`
      : `var acc: array<f32, ${R}>;
  for (var k = 0u; k < p.K; k++) {
    let wv = f32(w[n * p.K + k]);
    for (var r = 0u; r < rows; r++) { acc[r] += x[(m0 + r) * p.K + k] * wv; }
  }`;
    return `${header(matmulForward, types, o.dtype)}
@compute @workgroup_size(${WG})
fn main(@builtin(workgroup_id) wid: vec3<u32>, @builtin(num_workgroups) nwg: vec3<u32>, @builtin(local_invocation_index) lid: u32) {
  let n = flat_group(wid, nwg) * ${WG}u + lid;
  if (n >= p.N) { return; }
  let m0 = wid.z * ${R}u;
  let rows = min(${R}u, p.M - m0);
  ${loop}
  for (var r = 0u; r < rows; r++) {
    let i = (m0 + r) * p.ldo + p.col0 + n;
    ${store}
  }
}`;
  },
  grid: (u, o) => {
    const [x, y] = grid2d(ceilDiv(u.N, WG));
    return [x, y, ceilDiv(u.M, o.rowsPerThread)];
  },
};

/**
 * Linear-layer matmul over int4 weights, a port of matmulRef in model/ops.ref.ts applied to the
 * weights int4RoundTripRef (quant/int4.ref.ts) reads back, without ever storing them dequantised:
 *   out[m, col0 + n] (+)= alpha * sum_k x[m, k] * (level[n, k] * scale[n, k / G]) + b[col0 + n]
 * w (N, K / 8) u32 packed as in quant/int4.ts, scales (N, K / G) and b in the float dtype.
 *
 * Same thread layout as matmul.ts (one thread per output column and block of rowsPerThread rows,
 * no barriers): each packed word is unpacked once into two vec4s of dequantised weights and used
 * for every row of the block. Decode reads 4 bits per weight plus one scale per group.
 * Grid: (ceil(N / 64) folded into 2-D, ceil(M / rowsPerThread)).
 */
import type { BindingSpec, KernelSpec } from '../device/index.ts';
import { MATMUL_UNIFORMS, type MatmulUniform } from './matmul.ts';
import { ceilDiv, grid2d, header, type Dtype } from './wgsl.ts';

const WG = 64;

export interface MatmulInt4Options {
  /** dtype of the scales and the bias. */
  readonly dtype: Dtype;
  /** Weights per scale; a multiple of 8. K must be a multiple of it. */
  readonly groupSize: number;
  readonly bias: boolean;
  readonly accumulate: boolean;
  readonly rowsPerThread: number;
}

type Binding = 'x' | 'w' | 'scales' | 'b' | 'out';

const BINDINGS: readonly BindingSpec<Binding>[] = [
  { name: 'x', access: 'read' }, // (M, K) f32
  { name: 'w', access: 'read' }, // (N, K / 8) u32
  { name: 'scales', access: 'read' }, // (N, K / G)
  { name: 'b', access: 'read' }, // (col0 + N); bound but unread without the bias option
  { name: 'out', access: 'read_write' }, // (M, ldo) f32
];

export const matmulInt4Forward: KernelSpec<MatmulInt4Options, Binding, MatmulUniform> = {
  name: 'matmulInt4Forward',
  bindings: BINDINGS,
  uniforms: MATMUL_UNIFORMS,
  wgsl: (o) => {
    const R = o.rowsPerThread;
    const wordsPerGroup = o.groupSize / 8;
    const value = `p.alpha * dot(acc[r], vec4<f32>(1.0))${o.bias ? ' + f32(b[p.col0 + n])' : ''}`;
    const store = o.accumulate ? `out[i] += ${value};` : `out[i] = ${value};`;
    return `${header(matmulInt4Forward, { x: 'vec4<f32>', w: 'u32', scales: o.dtype, b: o.dtype, out: 'f32' }, o.dtype)}
const SHIFT_LO = vec4<u32>(0u, 4u, 8u, 12u);
const SHIFT_HI = vec4<u32>(16u, 20u, 24u, 28u);
@compute @workgroup_size(${WG})
fn main(@builtin(workgroup_id) wid: vec3<u32>, @builtin(num_workgroups) nwg: vec3<u32>, @builtin(local_invocation_index) lid: u32) {
  let n = flat_group(wid, nwg) * ${WG}u + lid;
  if (n >= p.N) { return; }
  let m0 = wid.z * ${R}u;
  let rows = min(${R}u, p.M - m0);
  let K4 = p.K / 4u;
  let groups = p.K / ${o.groupSize}u;
  var acc: array<vec4<f32>, ${R}>;
  for (var g = 0u; g < groups; g++) {
    let s = f32(scales[n * groups + g]);
    for (var j = 0u; j < ${wordsPerGroup}u; j++) {
      let word = g * ${wordsPerGroup}u + j;
      let packed = vec4<u32>(w[n * (p.K / 8u) + word]);
      let lo = (vec4<f32>((packed >> SHIFT_LO) & vec4<u32>(15u)) - 8.0) * s;
      let hi = (vec4<f32>((packed >> SHIFT_HI) & vec4<u32>(15u)) - 8.0) * s;
      for (var r = 0u; r < rows; r++) {
        let xi = (m0 + r) * K4 + 2u * word;
        acc[r] += x[xi] * lo + x[xi + 1u] * hi;
      }
    }
  }
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

/**
 * matmulNormedRows (matmul-normed.ts: out[m, col0 + n] = rmsnorm(x; g)[m] . w[n]) laid out for CPU adapters
 * such as SwiftShader, a port of matmulNormedRef in matmul-normed.ref.ts. It serves the LM head, which on a
 * CPU adapter is most of a decode step (151,936 x 64 at the tiny model's shape).
 * SwiftShader runs four invocations in SIMD lanes and gathers every storage load lane by lane, so what
 * costs is the number of loads and of instructions around them, not their coalescing. Here each thread
 * computes COLUMNS columns (strided by the workgroup size) for a block of rows, every loop is unrolled in
 * the generated text into plain variables (no accumulator arrays, no clamped tail terms: K % 4 == 0), and
 * each x[m, k] * g[k] and x's sum of squares is loaded once per thread instead of once per column. Measured
 * on SwiftShader on the 151,936 x 64 head: about 7x less CPU time than matmulNormedRows with one lane.
 * GPUs keep matmulNormedRows (lanes for coalesced loads).
 * Weights f32, f16 (K % 4 == 0, read as vec4s) or int4 (matmul-int4.ts's packing).
 * Grid: (ceil(N / (64 COLUMNS)) folded into 2-D, ceil(M / rowsPerThread)).
 */
import type { KernelSpec } from '../device/index.ts';
import { MATMUL_UNIFORMS, type MatmulUniform } from './matmul.ts';
import { INT4_SHIFTS } from './matmul-int4.ts';
import type { MatmulNormedOptions } from './matmul-normed.ts';
import { ceilDiv, grid2d, header } from './wgsl.ts';

const WG = 64;
/** Columns per thread: 8 took a fifth less CPU time than 4 on SwiftShader (151,936 x 64, one row). */
const COLUMNS = 8;

type MatmulNormedCpuOptions = Omit<MatmulNormedOptions, 'lanes' | 'bias' | 'vec4'>;

type Binding = 'x' | 'g' | 'w' | 'scales' | 'out';
type Uniform = Exclude<MatmulUniform, 'alpha'> | 'eps';

const range = (n: number) => Array.from({ length: n }, (_, i) => i);

function wgsl(o: MatmulNormedCpuOptions): string {
  const R = o.rowsPerThread;
  const int4 = o.groupSize > 0;
  const rows = range(R);
  const cols = range(COLUMNS);
  const each = (f: (r: number, c: number) => string) => rows.flatMap((r) => cols.map((c) => f(r, c))).join('\n      ');
  // x[m, k] * g[k] of row r at vec4 k (x's rows are K / 4 vec4s), its square summed as it is loaded.
  const xg = (r: number, k: string, name = 'xg') =>
    `let ${name}x${r} = x[row${r} * K4 + ${k}]; ss${r} += dot(${name}x${r}, ${name}x${r}); let ${name}${r} = ${name}x${r} * vec4<f32>(g[${k}]);`;
  const terms = int4
    ? `for (var u = 0u; u < p.K / 32u; u++) {
    ${cols.map((c) => `let s${c} = f32(scales[col${c} * (p.K / ${o.groupSize}u) + u * 32u / ${o.groupSize}u]); let words${c} = w[col${c} * (p.K / 32u) + u];`).join('\n    ')}
    for (var j = 0u; j < 4u; j++) {
      ${cols.map((c) => `let packed${c} = vec4<u32>(words${c}[j]); let lo${c} = (vec4<f32>((packed${c} >> SHIFT_LO) & vec4<u32>(15u)) - 8.0) * s${c}; let hi${c} = (vec4<f32>((packed${c} >> SHIFT_HI) & vec4<u32>(15u)) - 8.0) * s${c};`).join('\n      ')}
      ${rows.map((r) => `${xg(r, '8u * u + 2u * j')} ${xg(r, '8u * u + 2u * j + 1u', 'xgh')}`).join('\n      ')}
      ${each((r, c) => `acc${r}_${c} += xg${r} * lo${c} + xgh${r} * hi${c};`)}
    }
  }`
    : `for (var k = 0u; k < K4; k++) {
    ${cols.map((c) => `let w${c} = vec4<f32>(w[col${c} * K4 + k]);`).join(' ')}
    ${rows.map((r) => xg(r, 'k')).join('\n    ')}
    ${each((r, c) => `acc${r}_${c} += xg${r} * w${c};`)}
  }`;
  return `${header(matmulNormedCpu, { x: 'vec4<f32>', g: `vec4<${o.normDtype}>`, w: int4 ? 'vec4<u32>' : `vec4<${o.dtype}>`, scales: o.dtype, out: 'f32' }, o.dtype === 'f16' || o.normDtype === 'f16' ? 'f16' : 'f32')}
${int4 ? INT4_SHIFTS : ''}
@compute @workgroup_size(${WG})
fn main(@builtin(workgroup_id) wid: vec3<u32>, @builtin(num_workgroups) nwg: vec3<u32>, @builtin(local_invocation_index) lid: u32) {
  let n0 = flat_group(wid, nwg) * ${WG * COLUMNS}u + lid;
  let m0 = wid.z * ${R}u;
  let K4 = p.K / 4u;
  // Rows and columns past the ends are computed on clamped indices and not stored.
  ${rows.map((r) => `let row${r} = min(m0 + ${r}u, p.M - 1u); var ss${r} = 0.0;`).join('\n  ')}
  ${cols.map((c) => `let col${c} = min(n0 + ${c * WG}u, p.N - 1u);`).join('\n  ')}
  ${each((r, c) => `var acc${r}_${c} = vec4<f32>(0.0);`)}
  ${terms}
  ${rows
    .map(
      (r) => `if (m0 + ${r}u < p.M) {
    let inv${r} = inverseSqrt(ss${r} / f32(p.K) + p.eps);
    ${cols.map((c) => `if (n0 + ${c * WG}u < p.N) { out[(m0 + ${r}u) * p.ldo + p.col0 + n0 + ${c * WG}u] = inv${r} * dot(acc${r}_${c}, vec4<f32>(1.0)); }`).join('\n    ')}
  }`,
    )
    .join('\n  ')}
}`;
}

export const matmulNormedCpu: KernelSpec<MatmulNormedCpuOptions, Binding, Uniform> = {
  name: 'matmulNormedCpu',
  bindings: [
    { name: 'x', access: 'read' }, // (M, K) f32
    { name: 'g', access: 'read' }, // (K) norm weight
    { name: 'w', access: 'read' }, // (N, K) float, or (N, K / 8) u32 int4
    { name: 'scales', access: 'read' }, // int4: (N, K / G); bound but unread for float weights
    { name: 'out', access: 'read_write' }, // (M, ldo) f32
  ],
  uniforms: [...MATMUL_UNIFORMS.filter((u) => u.name !== 'alpha'), { name: 'eps', type: 'f32' }] as KernelSpec<
    MatmulNormedCpuOptions,
    Binding,
    Uniform
  >['uniforms'],
  wgsl,
  grid: (u, o) => {
    const [gx, gy] = grid2d(ceilDiv(u.N, WG * COLUMNS));
    return [gx, gy, ceilDiv(u.M, o.rowsPerThread)];
  },
};

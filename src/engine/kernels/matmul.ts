/**
 * Linear-layer matmul, a port of matmulRef in matmul.ref.ts, for prefill and decode alike:
 *   out[m, col0 + n] (+)= alpha * sum_k x[m, k] * w[n, k] + b[col0 + n]      m < M, n < N
 * x (M, K) f32, w (N, K) in the weight dtype, out (M, ldo) f32. `ldo` and `col0` let a weight split
 * in row chunks write its slice of the output columns (the bias covers the whole weight);
 * `accumulate` adds into out (the residual stream, or a LoRA delta onto its projection).
 *
 * `lanes` threads share one output column n and a block of `rowsPerThread` rows: lane j sums the
 * terms k = j, j + lanes, ... (with vec4, four at a time), then the lanes add up their sums in
 * workgroup memory. Each weight value is loaded once per row block and used for every row of it.
 * On a GPU, 32 lanes make neighbouring threads read neighbouring weights (coalesced loads: a
 * decode step is one pass over the weights). On SwiftShader (a CPU), lanes = 1 is fastest: one
 * thread walks a whole row with no barriers (a 16x16 shared-memory tiled kernel was 6-17x slower
 * there, and one workgroup per output with a tree reduction ~40x slower on a 151,936-row LM head).
 * With K % 4 == 0 the `vec4` variant loads four values at a time (4-5x faster on SwiftShader).
 * Grid: (ceil(N / (64 / lanes)) folded into 2-D, ceil(M / rowsPerThread)).
 */
import type { BindingSpec, KernelSpec, UniformSpec } from '../device/index.ts';
import { ceilDiv, grid2d, header, type Dtype } from './wgsl.ts';

const WG = 64;

export interface MatmulLayout {
  /** Rows of x each thread computes (1..MAX_ROWS_PER_THREAD). */
  readonly rowsPerThread: number;
  /** Threads per output column: a power of two, 1..64. */
  readonly lanes: number;
}

interface MatmulOptions extends MatmulLayout {
  readonly dtype: Dtype;
  readonly bias: boolean;
  readonly accumulate: boolean;
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

interface MatmulBody {
  /** Options common to every weight format. */
  readonly o: MatmulLayout & { readonly bias: boolean; readonly accumulate: boolean };
  /** Type of each accumulator, f32 or vec4<f32> (then summed over its components). */
  readonly acc: 'f32' | 'vec4<f32>';
  /**
   * WGSL that adds lane `lane`'s share of x[m0 + r] . w[n] into acc[r] for r < rows; `LANES` is
   * the lane count. Loop over rows as \`for (var r = 0u; r < ROWS; r++) { if (r < rows) { ... } }\`
   * (see matmulMain for why). Runs only for n < N.
   */
  readonly loop: string;
  /** Name of the output binding (default `out`). */
  readonly output?: string;
}

/**
 * The main function of a matmul kernel around `body.loop`: the thread-to-(column, lane) mapping,
 * the reduction over lanes, bias, alpha and the store. Declarations come from the caller's header.
 */
/**
 * A matmul kernel's constants and entry point up to its first statement of its own: LANES threads a
 * column n of the grid, ROWS rows a thread from m0 (rows of them in range). Shared by every matmul shape.
 */
export function matmulEntry(L: number, R: number): string {
  return `const LANES = ${L}u;
const ROWS = ${R}u;
const UNROLL = 4u;
@compute @workgroup_size(${WG})
fn main(@builtin(workgroup_id) wid: vec3<u32>, @builtin(num_workgroups) nwg: vec3<u32>, @builtin(local_invocation_index) lid: u32) {
  let lane = lid % LANES;
  let n = flat_group(wid, nwg) * ${WG / L}u + lid / LANES;
  let m0 = wid.z * ${R}u;
  let rows = min(${R}u, p.M - m0);`;
}

export function matmulMain(body: MatmulBody): string {
  const { o } = body;
  const R = o.rowsPerThread;
  const L = o.lanes;
  const total = (a: string) => (body.acc === 'f32' ? a : `dot(${a}, vec4<f32>(1.0))`);
  const store = (sum: string) => {
    const value = `p.alpha * ${sum}${o.bias ? ' + f32(b[p.col0 + n])' : ''}`;
    const out = body.output ?? 'out';
    return `let i = (m0 + r) * p.ldo + p.col0 + n;
    ${o.accumulate ? `${out}[i] += ${value};` : `${out}[i] = ${value};`}`;
  };
  // A constant trip count lets the shader compiler unroll the row loops and keep acc in registers;
  // indexed by a runtime bound, acc can land in local memory, a global-memory round trip per term.
  const prologue = `${matmulEntry(L, R)}
  var acc: array<${body.acc}, ${R}>;`;
  if (L === 1) {
    return `${prologue}
  if (n >= p.N) { return; }
  ${body.loop}
  for (var r = 0u; r < ROWS; r++) {
    if (r < rows) { ${store(total('acc[r]'))} }
  }
}`;
  }
  // Barriers need uniform control flow: every thread reaches them, idle columns included.
  return `var<workgroup> red: array<f32, ${WG * R}>;
${prologue}
  if (n < p.N) {
    ${body.loop}
  }
  for (var r = 0u; r < ROWS; r++) { red[r * ${WG}u + lid] = ${total('acc[r]')}; }
  workgroupBarrier();
  for (var w = LANES / 2u; w > 0u; w >>= 1u) {
    if (lane < w) {
      for (var r = 0u; r < ROWS; r++) { red[r * ${WG}u + lid] += red[r * ${WG}u + lid + w]; }
    }
    workgroupBarrier();
  }
  if (lane != 0u || n >= p.N) { return; }
  for (var r = 0u; r < ROWS; r++) {
    if (r < rows) { ${store(`red[r * ${WG}u + lid]`)} }
  }
}`;
}

/** Names a matmul loop works with: the weight row, the accumulators, and how x[row, col] is read (width: x's row length in elements). */
export interface LoopNames {
  readonly n: string;
  readonly acc: string;
  readonly x: (row: string, col: string, width: string) => string;
}

/** x[row, col] read plainly. */
export const plainX = (row: string, col: string, width: string) => `x[(${row}) * ${width} + ${col}]`;

/**
 * The float-weight loop of matmulBody over `w`: UNROLL terms per trip, loaded unconditionally
 * (clamped index, zero weight past K) so their loads are in flight together rather than one after another.
 */
export function floatMatmulLoop(vec4: boolean, names: LoopNames): string {
  const { n, acc, x } = names;
  return `{
  let Kw = ${vec4 ? 'p.K / 4u' : 'p.K'};
  for (var k0 = lane; k0 < Kw; k0 += UNROLL * LANES) {
    for (var u = 0u; u < UNROLL; u++) {
      let k = min(k0 + u * LANES, Kw - 1u);
      let wv = ${vec4 ? 'vec4<f32>' : 'f32'}(w[(${n}) * Kw + k]) * f32(k0 + u * LANES < Kw);
      for (var r = 0u; r < ROWS; r++) { if (r < rows) { ${acc}[r] += ${x('m0 + r', 'k', 'Kw')} * wv; } }
    }
  }
  }`;
}

/** Grid of a matmul kernel: column groups folded into 2-D, one z slice per row block. */
export function matmulGrid(u: { M: number; N: number }, o: MatmulLayout): [number, number, number] {
  const [x, y] = grid2d(ceilDiv(u.N, WG / o.lanes));
  return [x, y, ceilDiv(u.M, o.rowsPerThread)];
}

export const matmulForward: KernelSpec<MatmulOptions, MatmulBinding, MatmulUniform> = {
  name: 'matmulForward',
  bindings: BINDINGS,
  uniforms: MATMUL_UNIFORMS,
  wgsl: (o) => {
    const types = o.vec4 ? { x: 'vec4<f32>', w: `vec4<${o.dtype}>`, b: o.dtype, out: 'f32' } : { x: 'f32', w: o.dtype, b: o.dtype, out: 'f32' };
    return `${header(matmulForward, types, o.dtype)}
${matmulMain({ o, acc: o.vec4 ? 'vec4<f32>' : 'f32', loop: floatMatmulLoop(o.vec4, { n: 'n', acc: 'acc', x: plainX }) })}`;
  },
  grid: matmulGrid,
};

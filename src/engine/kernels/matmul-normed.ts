/**
 * The inference forward's matmul with the RMSNorm before it folded in, a port of the references in
 * matmul-normed.ref.ts. With inv_m = 1 / sqrt(mean_k x[m, k]^2 + eps) and g the norm weight,
 *   y[m, n] = inv_m * sum_k (x[m, k] * g[k]) * w[n, k] (+ b[n])
 * which is rmsnorm(x) W^T (+ b) without storing the normed rows: each thread sums x's squares
 * beside its dot product (its lanes reduce both together), so a norm costs no dispatch of its own.
 * W (N, K) is a row-concatenation of projections (weights of f32, f16 or int4, as matmul.ts and
 * matmul-int4.ts, whose loops it reuses), and the epilogue places the result:
 *   'rows'    out[m, col0 + n] = y[m, n]                       (the LM head, a LoRA A)
 *   'split'   columns [0, N1), [N1, N1 + N2), [N1 + N2, N) to out1, out2, out3, each (M, width)
 *             (q/k/v, or gate/up with an empty third part)
 *   'swiglu'  out[m, n] = silu(y[m, n]) * y[m, N + n] for n < N, W holding 2N rows (gate then up)
 *   'rope'    q/k/v with rope and the KV-cache append of rope.ts's ropeCacheForward: W holds the
 *             q, k and v rows (N1 = H D, N2 = KV D each), and thread n computes the pair of columns
 *             (i, i + D/2) of one head, rotates q into q and k into the key cache row of its token,
 *             and copies v into the value cache. Eight storage bindings at most (WebGPU's default
 *             limit), so the bias rides behind the norm weight in `g` and the slot of each
 *             sequence behind the cos/sin table in `cs` (as u32 bits).
 * Threads, lanes and grid as matmul.ts (matmulGrid over N columns).
 */
import type { BindingSpec, KernelSpec, UniformSpec } from '../device/index.ts';
import { INT4_SHIFTS, int4MatmulLoop } from './matmul-int4.ts';
import { floatMatmulLoop, matmulEntry, matmulGrid, type LoopNames, type MatmulLayout } from './matmul.ts';
import { header, type Dtype } from './wgsl.ts';

const WG = 64;

type FusedEpilogue = 'rows' | 'split' | 'swiglu' | 'rope';

export interface MatmulNormedOptions extends MatmulLayout {
  /** dtype of float weights, or of int4 scales; the bias is in it too. */
  readonly dtype: Dtype;
  /** dtype of the norm weight g (the model's; a LoRA A is f32 under an f16 model). */
  readonly normDtype: Dtype;
  /** int4 weights in groups of this many; 0 for float weights. */
  readonly groupSize: number;
  /** Float weights loaded four at a time; needs K % 4 == 0 (int4 always is). */
  readonly vec4: boolean;
  readonly bias: boolean;
}

type Uniform = 'M' | 'N' | 'K' | 'ldo' | 'col0' | 'N1' | 'N2' | 'eps';
type RopeUniform = Uniform | 'D' | 'Tq' | 'startPos' | 'slotStride' | 'slotsAt';

const UNIFORMS: readonly UniformSpec<Uniform>[] = [
  { name: 'M', type: 'u32' },
  { name: 'N', type: 'u32' }, // output columns ('swiglu': half the weight's rows)
  { name: 'K', type: 'u32' },
  { name: 'ldo', type: 'u32' }, // 'rows' only
  { name: 'col0', type: 'u32' }, // 'rows' only
  { name: 'N1', type: 'u32' }, // 'split' only
  { name: 'N2', type: 'u32' }, // 'split' only
  { name: 'eps', type: 'f32' },
];

const ROPE_UNIFORMS: readonly UniformSpec<RopeUniform>[] = [
  ...UNIFORMS,
  { name: 'D', type: 'u32' },
  { name: 'Tq', type: 'u32' }, // tokens per sequence
  { name: 'startPos', type: 'u32' },
  { name: 'slotStride', type: 'u32' }, // values between cache slots
  { name: 'slotsAt', type: 'u32' }, // where the slots start in cs
];

type Input = 'x' | 'g' | 'w' | 'scales' | 'b';
const OUTPUTS = { rows: ['out'], split: ['out1', 'out2', 'out3'], swiglu: ['out'], rope: ['cs', 'q', 'kc', 'vc'] } as const;

type Spec<E extends Exclude<FusedEpilogue, 'rope'>> = KernelSpec<MatmulNormedOptions, Input | (typeof OUTPUTS)[E][number], Uniform>;

function bindings(epilogue: FusedEpilogue): BindingSpec<string>[] {
  const rope = epilogue === 'rope';
  return [
    { name: 'x', access: 'read' }, // (M, K) f32
    { name: 'g', access: 'read' }, // (K) norm weight; 'rope': then the (N) bias
    { name: 'w', access: 'read' }, // (rows, K) float, or (rows, K / 8) u32 int4
    { name: 'scales', access: 'read' }, // int4: (rows, K / G); bound but unread for float weights
    ...(rope
      ? [
          { name: 'cs', access: 'read' as const }, // (M, D/2, 2) cos, sin per token; then (M / Tq) slots as u32 bits
          { name: 'q', access: 'read_write' as const }, // (M, H, D)
          { name: 'kc', access: 'read_write' as const }, // (slots, slotStride) key cache, each slot (S, KV, D)
          { name: 'vc', access: 'read_write' as const }, // (slots, slotStride) value cache
        ]
      : [
          { name: 'b', access: 'read' as const }, // (N) bias; bound but unread without the bias option
          ...OUTPUTS[epilogue].map((name) => ({ name, access: 'read_write' as const })),
        ]),
  ];
}

function store(epilogue: FusedEpilogue, o: MatmulNormedOptions, vec: boolean): string {
  const y = `inv * total1${o.bias ? ' + f32(b[n])' : ''}`;
  switch (epilogue) {
    case 'rope': {
      const bias = (col: string) => (o.bias ? ` + ${biasBehindNorm(vec, col)}` : '');
      return `let a = inv * total1${bias('n1')};
      let z = inv * total2${bias('n2')};
      let half = p.D / 2u;
      let head = n / half;
      let i = n % half;
      let c = cs[(m * half + i) * 2u];
      let s = cs[(m * half + i) * 2u + 1u];
      let H = p.N1 / p.D;
      let KV = p.N2 / p.D;
      let cached = bitcast<u32>(cs[p.slotsAt + m / p.Tq]) * p.slotStride + (p.startPos + m % p.Tq) * KV * p.D;
      if (head < H) {
        q[m * p.N1 + n1] = a * c - z * s;
        q[m * p.N1 + n2] = z * c + a * s;
      } else if (head < H + KV) {
        let at = cached + (head - H) * p.D + i;
        kc[at] = a * c - z * s;
        kc[at + half] = z * c + a * s;
      } else {
        let at = cached + (head - H - KV) * p.D + i;
        vc[at] = a;
        vc[at + half] = z;
      }`;
    }
    case 'rows':
      return `out[m * p.ldo + p.col0 + n] = ${y};`;
    case 'split':
      return `let y = ${y};
      if (n < p.N1) { out1[m * p.N1 + n] = y; }
      else if (n < p.N1 + p.N2) { out2[m * p.N2 + n - p.N1] = y; }
      else { let N3 = p.N - p.N1 - p.N2; out3[m * N3 + n - p.N1 - p.N2] = y; }`;
    case 'swiglu':
      return `let gate = ${y};
      out[m * p.N + n] = gate / (1.0 + exp(-gate)) * inv * total2;`;
  }
}

/** The weights and norm of a normed matmul, without the thread layout. */
export type NormedWeights = Pick<MatmulNormedOptions, 'dtype' | 'normDtype' | 'groupSize' | 'vec4'>;

/** The f32 value of bias column `col` stored behind the (K) norm weight in g, read as vec4s where x is (vec). */
export function biasBehindNorm(vec: boolean, col: string): string {
  return `f32(${vec ? `g[(p.K + ${col}) / 4u][(p.K + ${col}) % 4u]` : `g[p.K + ${col}]`})`;
}

/**
 * The pieces of rmsnorm(x; g) W^T that this file's kernels and attention-decode.ts share: element types of
 * x, g, w and scales; whether x is read as vec4s; xs, x's row width in its array's elements; and the loop
 * (matmul.ts's or matmul-int4.ts's) adding lane `lane`'s share of (x[m0 + r] * g) . w[n] into acc[r].
 */
export function normedDot(o: NormedWeights): {
  types: Record<'x' | 'g' | 'w' | 'scales', string>;
  vec: boolean;
  xs: string;
  loop: (n: string, acc: string) => string;
} {
  const int4 = o.groupSize > 0;
  const vec = int4 || o.vec4;
  const types = {
    x: vec ? 'vec4<f32>' : 'f32',
    g: vec ? `vec4<${o.normDtype}>` : o.normDtype,
    w: int4 ? 'vec4<u32>' : vec ? `vec4<${o.dtype}>` : o.dtype,
    scales: o.dtype,
  };
  const xg = (row: string, col: string, width: string) => `(x[(${row}) * ${width} + ${col}] * ${vec ? 'vec4<f32>' : 'f32'}(g[${col}]))`;
  const loop = (n: string, acc: string) => {
    const names: LoopNames = { n, acc, x: xg };
    return int4 ? int4MatmulLoop(o.groupSize, names) : floatMatmulLoop(o.vec4, names);
  };
  return { types, vec, xs: vec ? 'p.K / 4u' : 'p.K', loop };
}

function wgsl(spec: KernelSpec<MatmulNormedOptions, string, string>, epilogue: FusedEpilogue, o: MatmulNormedOptions): string {
  const int4 = o.groupSize > 0;
  const R = o.rowsPerThread;
  const L = o.lanes;
  const dot = normedDot(o);
  const { vec, xs } = dot;
  const types: Record<string, string> = { ...dot.types, b: o.dtype };
  for (const out of OUTPUTS[epilogue]) types[out] = 'f32';
  const pair = epilogue === 'swiglu' || epilogue === 'rope';
  // The weight rows of a thread's column(s): with rope, the pair (i, i + D/2) of head n / (D/2).
  const [n1, n2] = epilogue === 'rope' ? ['n1', 'n2'] : ['n', 'n + p.N'];
  const columns = epilogue === 'rope' ? `let n1 = (n / (p.D / 2u)) * p.D + n % (p.D / 2u);\n  let n2 = n1 + p.D / 2u;` : '';
  const acc = vec ? 'vec4<f32>' : 'f32';
  const total = (a: string) => (vec ? `dot(${a}, vec4<f32>(1.0))` : a);
  // Per row r: the sum of squares, the product, and with a pair the second product; lanes reduce
  // these 2 or 3 sums per row in workgroup memory.
  const sums = pair ? 3 : 2;
  const body = `${dot.loop(n1, 'acc1')}
    ${pair ? dot.loop(n2, 'acc2') : ''}
    for (var k = lane; k < ${xs}; k += LANES) {
      for (var r = 0u; r < ROWS; r++) { if (r < rows) { let v = x[(m0 + r) * ${xs} + k]; ss[r] += ${vec ? 'dot(v, v)' : 'v * v'}; } }
    }`;
  const finish = (get: (sum: number) => string) => `for (var r = 0u; r < ROWS; r++) {
    if (r < rows) {
      let m = m0 + r;
      let inv = inverseSqrt(${get(0)} / f32(p.K) + p.eps);
      let total1 = ${get(1)};
      ${pair ? `let total2 = ${get(2)};` : ''}
      ${store(epilogue, o, vec)}
    }
  }`;
  const prologue = `${header(spec, types, o.dtype === 'f16' || o.normDtype === 'f16' ? 'f16' : 'f32')}
${int4 ? INT4_SHIFTS : ''}
${L > 1 ? `var<workgroup> red: array<f32, ${WG * R * sums}>;` : ''}
${matmulEntry(L, R)}
  ${columns}
  var ss: array<f32, ${R}>;
  var acc1: array<${acc}, ${R}>;
  ${pair ? `var acc2: array<${acc}, ${R}>;` : ''}`;
  if (L === 1) {
    return `${prologue}
  if (n >= p.N) { return; }
  ${body}
  ${finish((s) => (s === 0 ? 'ss[r]' : total(`acc${s}[r]`)))}
}`;
  }
  const slot = (s: number) => `red[(${s}u * ROWS + r) * ${WG}u + lid]`;
  // Barriers need uniform control flow: every thread reaches them, idle columns included.
  return `${prologue}
  if (n < p.N) {
    ${body}
  }
  for (var r = 0u; r < ROWS; r++) {
    ${slot(0)} = ss[r];
    ${slot(1)} = ${total('acc1[r]')};
    ${pair ? `${slot(2)} = ${total('acc2[r]')};` : ''}
  }
  workgroupBarrier();
  for (var w = LANES / 2u; w > 0u; w >>= 1u) {
    if (lane < w) {
      for (var r = 0u; r < ROWS; r++) {
        for (var s = 0u; s < ${sums}u; s++) { red[(s * ROWS + r) * ${WG}u + lid] += red[(s * ROWS + r) * ${WG}u + lid + w]; }
      }
    }
    workgroupBarrier();
  }
  if (lane != 0u || n >= p.N) { return; }
  ${finish((s) => slot(s))}
}`;
}

function spec<E extends Exclude<FusedEpilogue, 'rope'>>(epilogue: E): Spec<E> {
  const s: Spec<E> = {
    name: `matmulNormed_${epilogue}`,
    bindings: bindings(epilogue) as Spec<E>['bindings'],
    uniforms: UNIFORMS,
    wgsl: (o) => wgsl(s as KernelSpec<MatmulNormedOptions, string, Uniform>, epilogue, o),
    grid: matmulGrid,
  };
  return s;
}

export const matmulNormedRows = spec('rows');
export const matmulNormedSplit = spec('split');
export const matmulNormedSwiglu = spec('swiglu');

export const matmulNormedRope: KernelSpec<MatmulNormedOptions, Exclude<Input, 'b'> | (typeof OUTPUTS)['rope'][number], RopeUniform> = {
  name: 'matmulNormed_rope',
  bindings: bindings('rope') as KernelSpec<MatmulNormedOptions, Exclude<Input, 'b'> | (typeof OUTPUTS)['rope'][number], RopeUniform>['bindings'],
  uniforms: ROPE_UNIFORMS,
  wgsl: (o) => wgsl(matmulNormedRope as unknown as KernelSpec<MatmulNormedOptions, string, Uniform>, 'rope', o),
  grid: matmulGrid,
};

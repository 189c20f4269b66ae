/**
 * A decode step's attention with its own q/k/v, a port of attentionDecodeRef in attention-decode.ref.ts:
 * for M rows, each the next token of its own sequence (cache slot) at position startPos, one workgroup
 * per (row, query head h) computes
 *   q = rope(rmsnorm(x) Wq_h^T + bq_h),  k = rope(rmsnorm(x) Wk_kvh^T + bk_kvh),  v = rmsnorm(x) Wv_kvh^T + bv_kvh
 * (kvh = h / (H / KV); matmul-normed.ts's loops over f32, f16 or int4 weights, RMSNorm folded in), appends
 * k and v to the KV cache, and attends over the cache's startPos keys and the new one (attention.ts's loop).
 * That folds forward-fused.ts's q/k/v matmul with rope and the cache append into attention: four
 * dispatches a layer at decode instead of five.
 * Every query head of a KV group computes the group's k and v (H / KV times the k/v weight reads, where a
 * GPU step is bound by dispatches, not bytes); only the group's first head writes them to the cache, and
 * every head attends to its own copy of the new key and value (workgroup memory), so no workgroup waits
 * for another. The cache rows below startPos are only read.
 * W is forward-fused.ts's (H D + 2 KV D, K) concatenation of q, k and v (fused-weights.ts); the bias, as
 * for matmulNormed's 'rope' epilogue, rides behind the norm weight in `g`, and the cache slot of each row
 * behind the cos/sin table in `cs` (eight storage bindings, WebGPU's default limit).
 * Threads: `lanes` threads share a column (as matmul.ts: 1 on a CPU adapter, more on a GPU for coalesced
 * loads); the 64 threads take the 3 D columns 64 / lanes at a time, keep each lane's partial dot product
 * in workgroup memory and add them up after one barrier.
 * Grid: M * H workgroups folded into 2-D.
 */
import { BatonError } from '../../core/errors/index.ts';
import type { KernelSpec, UniformSpec } from '../device/index.ts';
import { attendKeys, attentionArrays } from './attention.ts';
import { biasBehindNorm, normedDot, type NormedWeights } from './matmul-normed.ts';
import { INT4_SHIFTS } from './matmul-int4.ts';
import { grid2d, header } from './wgsl.ts';

const WG = 64;

export interface AttentionDecodeOptions extends NormedWeights {
  readonly headDim: number;
  readonly bias: boolean;
  /** Threads per projection column: a power of two, at most decodeLanes(headDim, ...). */
  readonly lanes: number;
}

type Binding = 'x' | 'g' | 'w' | 'scales' | 'cs' | 'kc' | 'vc' | 'out';
type Uniform = 'M' | 'K' | 'H' | 'KV' | 'eps' | 'startPos' | 'slotStride' | 'slotsAt' | 'scale';

const UNIFORMS: readonly UniformSpec<Uniform>[] = [
  { name: 'M', type: 'u32' }, // rows, one token of one sequence each
  { name: 'K', type: 'u32' }, // hidden size
  { name: 'H', type: 'u32' },
  { name: 'KV', type: 'u32' },
  { name: 'eps', type: 'f32' },
  { name: 'startPos', type: 'u32' }, // the new token's position; the cache holds startPos tokens
  { name: 'slotStride', type: 'u32' }, // values between cache slots
  { name: 'slotsAt', type: 'u32' }, // where the slots start in cs
  { name: 'scale', type: 'f32' }, // 1 / sqrt(D)
];

/** WebGPU's default limit on a workgroup's memory, which the device may not raise. */
const WORKGROUP_BYTES = 16 * 1024;

/**
 * The most threads per column, up to `lanes`, for which the kernel's workgroup memory fits WebGPU's default
 * limit at head size D: the lanes' partial sums (3 D lanes + lanes) beside the fixed arrays (q, the new key and
 * value, the projections: 6 D; attention's 2 x 64).
 */
export function decodeLanes(headDim: number, lanes: number): number {
  const fixed = 6 * headDim + 2 * WG;
  let l = lanes;
  while (l > 1 && (fixed + 3 * headDim * l + l) * 4 > WORKGROUP_BYTES) l /= 2;
  return l;
}

function wgsl(o: AttentionDecodeOptions): string {
  const D = o.headDim;
  if (D % 4 !== 0) {
    throw new BatonError({
      code: 'engine/unsupported',
      message: `Baton's engine needs a head size that is a multiple of 4; this model's is ${D}.`,
      data: { headDim: D },
    });
  }
  const L = o.lanes;
  const cols = WG / L; // columns per pass
  const passes = Math.ceil((3 * D) / cols);
  const dot = normedDot(o);
  const acc = dot.vec ? 'vec4<f32>' : 'f32';
  const total = (a: string) => (dot.vec ? `dot(${a}, vec4<f32>(1.0))` : a);
  const types = { ...dot.types, cs: 'f32', kc: 'f32', vc: 'f32', out: 'f32' };
  return `${header(attentionDecode, types, o.dtype === 'f16' || o.normDtype === 'f16' ? 'f16' : 'f32')}
${o.groupSize > 0 ? INT4_SHIFTS : ''}
const LANES = ${L}u;
const ROWS = 1u;
const UNROLL = 4u;
${attentionArrays(D)}
var<workgroup> part: array<f32, ${passes * WG + L}>;
var<workgroup> proj: array<f32, ${3 * D}>;
var<workgroup> kNew: array<vec4<f32>, D4>;
var<workgroup> vNew: array<f32, D>;
// Column c of head h's q (c < D), then of its KV head's k and v, as a row of the concatenated weight.
fn weightRow(c: u32, h: u32, kvh: u32) -> u32 {
  if (c < D) { return h * D + c; }
  if (c < 2u * D) { return p.H * D + kvh * D + c - D; }
  return p.H * D + p.KV * D + kvh * D + c - 2u * D;
}
@compute @workgroup_size(${WG})
fn main(@builtin(workgroup_id) wid: vec3<u32>, @builtin(num_workgroups) nwg: vec3<u32>, @builtin(local_invocation_index) lid: u32) {
  let row = flat_group(wid, nwg);
  if (row >= p.M * p.H) { return; }
  let t = row / p.H;
  let h = row % p.H;
  let kvh = h / (p.H / p.KV);
  let lane = lid % LANES;
  let m0 = t;
  let rows = 1u;
  for (var round = 0u; round < ${passes}u; round++) {
    let c = round * ${cols}u + lid / LANES;
    var acc: array<${acc}, 1>;
    acc[0] = ${acc}(0.0); // SwiftShader was seen keeping the last round's sums without it
    if (c < 3u * D) {
      let n = weightRow(c, h, kvh);
      ${dot.loop('n', 'acc')}
    }
    part[round * ${WG}u + lid] = ${total('acc[0]')};
  }
  // The first column's lanes also sum the squares of x for the norm.
  if (lid < LANES) {
    var squares = 0.0;
    for (var k = lane; k < ${dot.xs}; k += LANES) { let xv = x[t * ${dot.xs} + k]; squares += ${dot.vec ? 'dot(xv, xv)' : 'xv * xv'}; }
    part[${passes * WG}u + lane] = squares;
  }
  workgroupBarrier();
  var ss = 0.0;
  for (var j = 0u; j < LANES; j++) { ss += part[${passes * WG}u + j]; }
  let inv = inverseSqrt(ss / f32(p.K) + p.eps);
  for (var c = lid; c < 3u * D; c += ${WG}u) {
    var y = 0.0;
    let at = (c / ${cols}u) * ${WG}u + (c % ${cols}u) * LANES;
    for (var j = 0u; j < LANES; j++) { y += part[at + j]; }
    let n = weightRow(c, h, kvh);
    proj[c] = inv * y${o.bias ? ` + ${biasBehindNorm(dot.vec, 'n')}` : ''};
  }
  workgroupBarrier();
  // Rope on q (scaled for the scores) and k, pair (i, i + D/2); the group's first head appends k and v.
  let half = D / 2u;
  let writer = h % (p.H / p.KV) == 0u;
  let kvStride = p.KV * D;
  let slotBase = bitcast<u32>(cs[p.slotsAt + t]) * p.slotStride;
  let cached = slotBase + p.startPos * kvStride + kvh * D;
  for (var i = lid; i < half; i += ${WG}u) {
    let c = cs[(t * half + i) * 2u];
    let s = cs[(t * half + i) * 2u + 1u];
    let qa = proj[i];
    let qb = proj[i + half];
    qs[i / 4u][i % 4u] = (qa * c - qb * s) * p.scale;
    qs[(i + half) / 4u][(i + half) % 4u] = (qb * c + qa * s) * p.scale;
    let ka = proj[D + i];
    let kb = proj[D + i + half];
    let k1 = ka * c - kb * s;
    let k2 = kb * c + ka * s;
    kNew[i / 4u][i % 4u] = k1;
    kNew[(i + half) / 4u][(i + half) % 4u] = k2;
    if (writer) {
      kc[cached + i] = k1;
      kc[cached + i + half] = k2;
    }
  }
  for (var d = lid; d < D; d += ${WG}u) {
    vNew[d] = proj[2u * D + d];
    if (writer) { vc[cached + d] = proj[2u * D + d]; }
  }
  workgroupBarrier();
  let keys = p.startPos + 1u;
  ${attendKeys(D, true)}
}`;
}

export const attentionDecode: KernelSpec<AttentionDecodeOptions, Binding, Uniform> = {
  name: 'attentionDecode',
  bindings: [
    { name: 'x', access: 'read' }, // (M, K) f32, the residual stream before the input norm
    { name: 'g', access: 'read' }, // (K) norm weight, then the (H D + 2 KV D) bias with the bias option
    { name: 'w', access: 'read' }, // (H D + 2 KV D, K) float, or (rows, K / 8) u32 int4
    { name: 'scales', access: 'read' }, // int4: (rows, K / G); bound but unread for float weights
    { name: 'cs', access: 'read' }, // (M, D/2, 2) cos, sin per row; then (M) slots as u32 bits from slotsAt
    { name: 'kc', access: 'read_write' }, // (slots, slotStride) key cache, each slot (S, KV, D)
    { name: 'vc', access: 'read_write' }, // (slots, slotStride) value cache
    { name: 'out', access: 'read_write' }, // (M, H, D)
  ],
  uniforms: UNIFORMS,
  wgsl,
  grid: (u) => grid2d(u.M * u.H),
};

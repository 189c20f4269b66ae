/**
 * Backward of GQA attention over a packed training pass, a port of attentionBackwardRef in
 * attention.ref.ts computed flash-style: the softmax is rebuilt from attentionTrainingForward's saved
 * log-sum-exp, P_ij = exp(scale q_i . k_j - lse_i), so no (T, S) matrix is stored. Same layout and
 * uniforms as attentionTrainingForward: T rows, each row's query, key and value in row t of q, k, v,
 * and each row's visibility rule (attention-visibility.ts: row i sees its shared prompt's rows and its
 * own segment up to itself; key j is seen by the rows j .. seenUntil_j - 1). Two passes, so that no
 * two threads add into one value:
 *  1. attentionBackwardQuery, one thread per query row (i, h), writes
 *     delta_i = dout_i . out_i (= sum_j P_ij dP_ij) and dq_i = scale sum_j dS_ij k_j, where
 *     dP_ij = dout_i . v_j and dS_ij = P_ij (dP_ij - delta_i).
 *  2. attentionBackwardKeyValue, one thread per key (j, kv head), sums over the query rows that see
 *     it, all heads of its group: dv_j = sum_i P_ij dout_i, dk_j = scale sum_i dS_ij q_i. A shared
 *     prompt's key sums the rows of every sequence that shares it, once.
 * Like attentionTrainingForward, each pass gives one thread a whole query row (pass 1) or key (pass 2),
 * which walks the keys (rows) that meet it alone, with no barriers; neighbouring threads read the same
 * keys (rows). Grid: 64 rows (keys) per workgroup, folded into 2-D.
 */
import type { KernelSpec } from '../device/index.ts';
import { TRAINING_ATTENTION_UNIFORMS, visibleKeysLoop, type AttentionOptions, type TrainingAttentionUniforms } from './attention.ts';
import { grid2d, header } from './wgsl.ts';

const WG = 64;

const MAIN = `@compute @workgroup_size(${WG})
fn main(@builtin(workgroup_id) wid: vec3<u32>, @builtin(num_workgroups) nwg: vec3<u32>, @builtin(local_invocation_index) lid: u32) {
  let id = flat_group(wid, nwg) * ${WG}u + lid;`;

/** WGSL element types: the (rows, D) tensors read as vec4s, per-row scalars as f32, the rule as vec4<u32>. */
const vec4Of = <B extends string>(names: readonly B[]) =>
  Object.fromEntries(names.map((n) => [n, n === 'visibility' ? 'vec4<u32>' : n === 'lse' || n === 'delta' ? 'f32' : 'vec4<f32>'])) as Record<B, string>;
const sum4 = (v: string) => `(${v}.x + ${v}.y + ${v}.z + ${v}.w)`;

export const attentionBackwardQuery: KernelSpec<
  AttentionOptions,
  'q' | 'k' | 'v' | 'visibility' | 'out' | 'dout' | 'lse' | 'dq' | 'delta',
  TrainingAttentionUniforms
> = {
  name: 'attentionBackwardQuery',
  bindings: [
    { name: 'q', access: 'read' }, // (T, Hq, D)
    { name: 'k', access: 'read' }, // (T, Hkv, D)
    { name: 'v', access: 'read' }, // (T, Hkv, D)
    { name: 'visibility', access: 'read' }, // (T, 4) u32
    { name: 'out', access: 'read' }, // (T, Hq, D) the forward's output
    { name: 'dout', access: 'read' }, // (T, Hq, D)
    { name: 'lse', access: 'read' }, // (T, Hq) the forward's log-sum-exp
    { name: 'dq', access: 'read_write' }, // (T, Hq, D)
    { name: 'delta', access: 'read_write' }, // (T, Hq) dout . out, for pass 2
  ],
  uniforms: TRAINING_ATTENTION_UNIFORMS,
  wgsl: ({ headDim: D }) => `${header(attentionBackwardQuery, vec4Of(['q', 'k', 'v', 'visibility', 'out', 'dout', 'lse', 'dq', 'delta']))}
const D4 = ${D / 4}u;
${MAIN}
  let row = id;
  if (row >= p.T * p.Hq) { return; }
  let t = row / p.Hq;
  let kvh = (row % p.Hq) / (p.Hq / p.Hkv);
  let kvStride = p.Hkv * D4;
  let vis = visibility[t];
  var qs: array<vec4<f32>, D4>;
  var dos: array<vec4<f32>, D4>;
  var acc: array<vec4<f32>, D4>;
  var part = vec4<f32>(0.0);
  for (var d = 0u; d < D4; d++) {
    qs[d] = q[row * D4 + d];
    dos[d] = dout[row * D4 + d];
    part += dos[d] * out[row * D4 + d];
    acc[d] = vec4<f32>(0.0);
  }
  let dsum = ${sum4('part')};
  delta[row] = dsum;
  let m = lse[row];
  ${visibleKeysLoop(`let kb = j * kvStride + kvh * D4;
    var s = vec4<f32>(0.0);
    var dp = vec4<f32>(0.0);
    for (var d = 0u; d < D4; d++) {
      s += qs[d] * k[kb + d];
      dp += dos[d] * v[kb + d];
    }
    let g = exp(${sum4('s')} * p.scale - m) * (${sum4('dp')} - dsum) * p.scale;
    for (var d = 0u; d < D4; d++) { acc[d] += g * k[kb + d]; }`)}
  for (var d = 0u; d < D4; d++) { dq[row * D4 + d] = acc[d]; }
}`,
  grid: (u) => grid2d(Math.ceil((u.T * u.Hq) / WG)),
};

export const attentionBackwardKeyValue: KernelSpec<
  AttentionOptions,
  'q' | 'k' | 'v' | 'visibility' | 'dout' | 'lse' | 'delta' | 'dk' | 'dv',
  TrainingAttentionUniforms
> = {
  name: 'attentionBackwardKeyValue',
  bindings: [
    { name: 'q', access: 'read' }, // (T, Hq, D)
    { name: 'k', access: 'read' }, // (T, Hkv, D)
    { name: 'v', access: 'read' }, // (T, Hkv, D)
    { name: 'visibility', access: 'read' }, // (T, 4) u32
    { name: 'dout', access: 'read' }, // (T, Hq, D)
    { name: 'lse', access: 'read' }, // (T, Hq)
    { name: 'delta', access: 'read' }, // (T, Hq) from attentionBackwardQuery
    { name: 'dk', access: 'read_write' }, // (T, Hkv, D)
    { name: 'dv', access: 'read_write' }, // (T, Hkv, D)
  ],
  uniforms: TRAINING_ATTENTION_UNIFORMS,
  wgsl: ({ headDim: D }) => `${header(attentionBackwardKeyValue, vec4Of(['q', 'k', 'v', 'visibility', 'dout', 'lse', 'delta', 'dk', 'dv']))}
const D4 = ${D / 4}u;
${MAIN}
  // Thread i takes key row i / Hkv, kv head i % Hkv: neighbours read the same query rows.
  if (id >= p.T * p.Hkv) { return; }
  let j = id / p.Hkv;
  let kvh = id % p.Hkv;
  let group = p.Hq / p.Hkv;
  let kb = id * D4;
  var ks: array<vec4<f32>, D4>;
  var vs: array<vec4<f32>, D4>;
  var accK: array<vec4<f32>, D4>;
  var accV: array<vec4<f32>, D4>;
  for (var d = 0u; d < D4; d++) {
    ks[d] = k[kb + d];
    vs[d] = v[kb + d];
    accK[d] = vec4<f32>(0.0);
    accV[d] = vec4<f32>(0.0);
  }
  // Key j is seen by the query rows j .. seenUntil - 1, each by the group's heads of kv head kvh.
  let rows = (visibility[j].w - j) * group;
  for (var n = 0u; n < rows; n++) {
    let row = (j + n / group) * p.Hq + kvh * group + n % group;
    var s = vec4<f32>(0.0);
    var dp = vec4<f32>(0.0);
    for (var d = 0u; d < D4; d++) {
      s += q[row * D4 + d] * ks[d];
      dp += dout[row * D4 + d] * vs[d];
    }
    let pr = exp(${sum4('s')} * p.scale - lse[row]);
    let g = pr * (${sum4('dp')} - delta[row]) * p.scale;
    for (var d = 0u; d < D4; d++) {
      accK[d] += g * q[row * D4 + d];
      accV[d] += pr * dout[row * D4 + d];
    }
  }
  for (var d = 0u; d < D4; d++) {
    dk[kb + d] = accK[d];
    dv[kb + d] = accV[d];
  }
}`,
  grid: (u) => grid2d(Math.ceil((u.T * u.Hkv) / WG)),
};

/**
 * Backward of causal GQA attention, a port of attentionBackwardRef in attention.ref.ts computed
 * flash-style: the softmax is rebuilt from attentionTrainingForward's saved log-sum-exp,
 * P_ij = exp(scale q_i . k_j - lse_i), so no (T, S) matrix is stored. Same layout and uniforms as
 * attention.ts: T query rows, Tq per sequence, sequence b's keys in cache slot slots[b], all
 * sequences at positions startPos .. startPos + Tq - 1 (S = startPos + Tq keys each; sequences of
 * different lengths are padded to Tq at the end, their padded rows given dout = 0, which makes every
 * gradient they touch 0). Two passes, so that no two workgroups add into one value:
 *  1. attentionBackwardQuery, one workgroup per query row (t, h), writes
 *     delta_i = dout_i . out_i (= sum_j P_ij dP_ij) and dq_i = scale sum_j dS_ij k_j, where
 *     dP_ij = dout_i . v_j and dS_ij = P_ij (dP_ij - delta_i).
 *  2. attentionBackwardKeyValue, one workgroup per key (b, kv head, j), sums over the query rows that
 *     see it, all heads of its group: dv_j = sum_i P_ij dout_i, dk_j = scale sum_i dS_ij q_i.
 *     It writes all S keys of each slot, the prefix included (a shared prompt's keys get each
 *     sequence's part in that sequence's slot; the caller sums them). Sequences must have distinct
 *     slots, or two workgroups would write one key's gradient.
 * Each pass scores a block of 64 keys (or query rows) one per thread, then each thread accumulates
 * the output dimensions d = lid, lid + 64, ... of the head over the block, like the forward.
 */
import type { KernelSpec } from '../device/index.ts';
import { ATTENTION_UNIFORMS, type AttentionOptions, type AttentionUniforms } from './attention.ts';
import { grid2d, header, treeReduce } from './wgsl.ts';

const WG = 64;

const MAIN = `@compute @workgroup_size(${WG})
fn main(@builtin(workgroup_id) wid: vec3<u32>, @builtin(num_workgroups) nwg: vec3<u32>, @builtin(local_invocation_index) lid: u32) {`;

export const attentionBackwardQuery: KernelSpec<
  AttentionOptions,
  'q' | 'k' | 'v' | 'slots' | 'out' | 'dout' | 'lse' | 'dq' | 'delta',
  AttentionUniforms
> = {
  name: 'attentionBackwardQuery',
  bindings: [
    { name: 'q', access: 'read' }, // (T, Hq, D)
    { name: 'k', access: 'read' }, // (slots, slotStride), each slot (S, Hkv, D)
    { name: 'v', access: 'read' }, // (slots, slotStride)
    { name: 'slots', access: 'read' }, // (T / Tq) u32
    { name: 'out', access: 'read' }, // (T, Hq, D) the forward's output
    { name: 'dout', access: 'read' }, // (T, Hq, D)
    { name: 'lse', access: 'read' }, // (T, Hq) the forward's log-sum-exp
    { name: 'dq', access: 'read_write' }, // (T, Hq, D)
    { name: 'delta', access: 'read_write' }, // (T, Hq) dout . out, for pass 2
  ],
  uniforms: ATTENTION_UNIFORMS,
  wgsl: ({ headDim: D }) => {
    const perThread = Math.ceil(D / WG);
    const f32 = 'f32';
    return `${header(attentionBackwardQuery, { q: f32, k: f32, v: f32, slots: 'u32', out: f32, dout: f32, lse: f32, dq: f32, delta: f32 })}
const D = ${D}u;
var<workgroup> qs: array<f32, D>;
var<workgroup> dos: array<f32, D>;
var<workgroup> dscore: array<f32, ${WG}>; // scale * dS of each key of the block
var<workgroup> red: array<f32, ${WG}>;
${MAIN}
  let row = flat_group(wid, nwg);
  if (row >= p.T * p.Hq) { return; }
  let t = row / p.Hq;
  let kvh = (row % p.Hq) / (p.Hq / p.Hkv);
  let kvStride = p.Hkv * D;
  let kvBase = slots[t / p.Tq] * p.slotStride + kvh * D;
  var part = 0.0;
  for (var d = lid; d < D; d += ${WG}u) {
    qs[d] = q[row * D + d];
    dos[d] = dout[row * D + d];
    part += dos[d] * out[row * D + d];
  }
  red[lid] = part;
  ${treeReduce('red', WG, (a, b) => `${a} + ${b}`)}
  let dsum = red[0];
  if (lid == 0u) { delta[row] = dsum; }
  let m = lse[row];
  let keys = p.startPos + t % p.Tq + 1u;
  var acc: array<f32, ${perThread}>;
  for (var base = 0u; base < keys; base += ${WG}u) {
    let j = base + lid;
    var g = 0.0;
    if (j < keys) {
      let kb = kvBase + j * kvStride;
      var s = 0.0;
      var dp = 0.0;
      for (var d = 0u; d < D; d++) {
        s += qs[d] * k[kb + d];
        dp += dos[d] * v[kb + d];
      }
      g = exp(s * p.scale - m) * (dp - dsum) * p.scale;
    }
    dscore[lid] = g;
    workgroupBarrier();
    let count = min(${WG}u, keys - base);
    for (var i = 0u; i < ${perThread}u; i++) {
      let d = lid + i * ${WG}u;
      if (d < D) {
        for (var jj = 0u; jj < count; jj++) { acc[i] += dscore[jj] * k[kvBase + (base + jj) * kvStride + d]; }
      }
    }
    workgroupBarrier();
  }
  for (var i = 0u; i < ${perThread}u; i++) {
    let d = lid + i * ${WG}u;
    if (d < D) { dq[row * D + d] = acc[i]; }
  }
}`;
  },
  grid: (u) => grid2d(u.T * u.Hq),
};

export const attentionBackwardKeyValue: KernelSpec<
  AttentionOptions,
  'q' | 'k' | 'v' | 'slots' | 'dout' | 'lse' | 'delta' | 'dk' | 'dv',
  AttentionUniforms
> = {
  name: 'attentionBackwardKeyValue',
  bindings: [
    { name: 'q', access: 'read' }, // (T, Hq, D)
    { name: 'k', access: 'read' }, // (slots, slotStride), each slot (S, Hkv, D)
    { name: 'v', access: 'read' }, // (slots, slotStride)
    { name: 'slots', access: 'read' }, // (T / Tq) u32, distinct
    { name: 'dout', access: 'read' }, // (T, Hq, D)
    { name: 'lse', access: 'read' }, // (T, Hq)
    { name: 'delta', access: 'read' }, // (T, Hq) from attentionBackwardQuery
    { name: 'dk', access: 'read_write' }, // (slots, slotStride) like k; rows past S untouched
    { name: 'dv', access: 'read_write' }, // (slots, slotStride) like v
  ],
  uniforms: ATTENTION_UNIFORMS,
  wgsl: ({ headDim: D }) => {
    const perThread = Math.ceil(D / WG);
    const f32 = 'f32';
    return `${header(attentionBackwardKeyValue, { q: f32, k: f32, v: f32, slots: 'u32', dout: f32, lse: f32, delta: f32, dk: f32, dv: f32 })}
const D = ${D}u;
var<workgroup> ks: array<f32, D>;
var<workgroup> vs: array<f32, D>;
var<workgroup> prob: array<f32, ${WG}>; // P of each query row of the block
var<workgroup> dscore: array<f32, ${WG}>; // scale * dS of each query row of the block
// The n-th query row (t, h) that sees a key of sequence b and kv head kvh, from the first that does.
fn queryRow(n: u32, b: u32, kvh: u32, first: u32, group: u32) -> u32 {
  return (b * p.Tq + first + n / group) * p.Hq + kvh * group + n % group;
}
${MAIN}
  let S = p.startPos + p.Tq;
  let id = flat_group(wid, nwg);
  if (id >= (p.T / p.Tq) * p.Hkv * S) { return; }
  let j = id % S;
  let b = id / S / p.Hkv;
  let kvh = (id / S) % p.Hkv;
  let group = p.Hq / p.Hkv;
  let kb = slots[b] * p.slotStride + (j * p.Hkv + kvh) * D;
  for (var d = lid; d < D; d += ${WG}u) {
    ks[d] = k[kb + d];
    vs[d] = v[kb + d];
  }
  workgroupBarrier();
  // Key j is seen by the sequence's rows from position j on: all of them for a prefix key.
  let first = max(j, p.startPos) - p.startPos;
  let rows = (p.Tq - first) * group;
  var accK: array<f32, ${perThread}>;
  var accV: array<f32, ${perThread}>;
  for (var base = 0u; base < rows; base += ${WG}u) {
    let n = base + lid;
    var pr = 0.0;
    var g = 0.0;
    if (n < rows) {
      let row = queryRow(n, b, kvh, first, group);
      var s = 0.0;
      var dp = 0.0;
      for (var d = 0u; d < D; d++) {
        s += q[row * D + d] * ks[d];
        dp += dout[row * D + d] * vs[d];
      }
      pr = exp(s * p.scale - lse[row]);
      g = pr * (dp - delta[row]) * p.scale;
    }
    prob[lid] = pr;
    dscore[lid] = g;
    workgroupBarrier();
    let count = min(${WG}u, rows - base);
    for (var i = 0u; i < ${perThread}u; i++) {
      let d = lid + i * ${WG}u;
      if (d < D) {
        for (var nn = 0u; nn < count; nn++) {
          let row = queryRow(base + nn, b, kvh, first, group);
          accK[i] += dscore[nn] * q[row * D + d];
          accV[i] += prob[nn] * dout[row * D + d];
        }
      }
    }
    workgroupBarrier();
  }
  for (var i = 0u; i < ${perThread}u; i++) {
    let d = lid + i * ${WG}u;
    if (d < D) {
      dk[kb + d] = accK[i];
      dv[kb + d] = accV[i];
    }
  }
}`;
  },
  grid: (u) => grid2d((u.T / u.Tq) * u.Hkv * (u.startPos + u.Tq)),
};

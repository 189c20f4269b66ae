/**
 * Causal GQA attention over the KV cache, a port of attentionRef in model/ops.ref.ts computed flash-style (online
 * softmax over blocks of 64 keys), so no (T, S) score matrix is ever stored. Serves prefill
 * (T = prompt length) and decode (T = 1) alike; keys of positions > startPos + t are never read.
 * Several sequences may share one call (a group decoded as a batch): the T query rows are Tq rows of
 * sequence 0, then Tq of sequence 1, ...; sequence b reads the cache slot `slots[b]`, which starts
 * slots[b] * slotStride values into k and v. All sequences are at the same positions.
 * One workgroup of 64 threads per (t, h): each thread scores one key of the block, then each thread
 * accumulates the output dimensions d = lid, lid + 64, ... of the head.
 * Grid: T * Hq workgroups folded into 2-D. Option headDim sizes the per-thread accumulator.
 */
import type { KernelSpec } from '../device/index.ts';
import { grid2d, header } from './wgsl.ts';

const WG = 64;

export interface AttentionOptions {
  readonly headDim: number;
}

export const attentionForward: KernelSpec<
  AttentionOptions,
  'q' | 'k' | 'v' | 'slots' | 'out',
  'T' | 'Tq' | 'slotStride' | 'Hq' | 'Hkv' | 'startPos' | 'scale'
> = {
  name: 'attentionForward',
  bindings: [
    { name: 'q', access: 'read' }, // (T, Hq, D)
    { name: 'k', access: 'read' }, // (slots, slotStride) cache, each slot (S, Hkv, D)
    { name: 'v', access: 'read' }, // (slots, slotStride) cache
    { name: 'slots', access: 'read' }, // (T / Tq) u32: the cache slot of each sequence
    { name: 'out', access: 'read_write' }, // (T, Hq, D)
  ],
  uniforms: [
    { name: 'T', type: 'u32' },
    { name: 'Tq', type: 'u32' }, // query rows per sequence
    { name: 'slotStride', type: 'u32' }, // values between cache slots

    { name: 'Hq', type: 'u32' },
    { name: 'Hkv', type: 'u32' },
    { name: 'startPos', type: 'u32' },
    { name: 'scale', type: 'f32' },
  ],
  wgsl: (o) => {
    const D = o.headDim;
    const perThread = Math.ceil(D / WG);
    return `${header(attentionForward, { q: 'f32', k: 'f32', v: 'f32', slots: 'u32', out: 'f32' })}
const D = ${D}u;
var<workgroup> qs: array<f32, ${D}>;
var<workgroup> prob: array<f32, ${WG}>;
var<workgroup> red: array<f32, ${WG}>;
@compute @workgroup_size(${WG})
fn main(@builtin(workgroup_id) wid: vec3<u32>, @builtin(num_workgroups) nwg: vec3<u32>, @builtin(local_invocation_index) lid: u32) {
  let row = flat_group(wid, nwg);
  if (row >= p.T * p.Hq) { return; }
  let t = row / p.Hq;
  let h = row % p.Hq;
  let kvh = h / (p.Hq / p.Hkv);
  let kvStride = p.Hkv * D;
  let slotBase = slots[t / p.Tq] * p.slotStride;
  for (var d = lid; d < D; d += ${WG}u) { qs[d] = q[row * D + d] * p.scale; }
  workgroupBarrier();
  let keys = p.startPos + t % p.Tq + 1u;
  var m = -1e30;
  var l = 0.0;
  var acc: array<f32, ${perThread}>;
  for (var base = 0u; base < keys; base += ${WG}u) {
    let j = base + lid;
    var s = -1e30;
    if (j < keys) {
      s = 0.0;
      let kb = slotBase + j * kvStride + kvh * D;
      for (var d = 0u; d < D; d++) { s += qs[d] * k[kb + d]; }
    }
    red[lid] = s;
    workgroupBarrier();
    for (var w = ${WG / 2}u; w > 0u; w >>= 1u) {
      if (lid < w) { red[lid] = max(red[lid], red[lid + w]); }
      workgroupBarrier();
    }
    let mNew = max(m, red[0]);
    workgroupBarrier();
    var e = 0.0;
    if (j < keys) { e = exp(s - mNew); }
    prob[lid] = e;
    red[lid] = e;
    workgroupBarrier();
    for (var w = ${WG / 2}u; w > 0u; w >>= 1u) {
      if (lid < w) { red[lid] += red[lid + w]; }
      workgroupBarrier();
    }
    let correction = exp(m - mNew);
    l = l * correction + red[0];
    m = mNew;
    let count = min(${WG}u, keys - base);
    for (var i = 0u; i < ${perThread}u; i++) {
      let d = lid + i * ${WG}u;
      if (d < D) {
        var a = acc[i] * correction;
        for (var jj = 0u; jj < count; jj++) { a += prob[jj] * v[slotBase + (base + jj) * kvStride + kvh * D + d]; }
        acc[i] = a;
      }
    }
    workgroupBarrier();
  }
  for (var i = 0u; i < ${perThread}u; i++) {
    let d = lid + i * ${WG}u;
    if (d < D) { out[row * D + d] = acc[i] / l; }
  }
}`;
  },
  grid: (u) => grid2d(u.T * u.Hq),
};

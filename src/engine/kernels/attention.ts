/**
 * Causal GQA attention over the KV cache, a port of attentionRef in attention.ref.ts computed flash-style (online
 * softmax over blocks of 64 keys), so no (T, S) score matrix is ever stored. Serves prefill
 * (T = prompt length) and decode (T = 1) alike; keys of positions > startPos + t are never read.
 * Several sequences may share one call (a group decoded as a batch): the T query rows are Tq rows of
 * sequence 0, then Tq of sequence 1, ...; sequence b reads the cache slot `slots[b]`, which starts
 * slots[b] * slotStride values into k and v. All sequences are at the same positions.
 * One workgroup of 64 threads per (t, h): each thread scores one key of the block, then each thread
 * accumulates the output dimensions d = lid, lid + 64, ... of the head.
 * A decode step is one workgroup per head, so its time is each thread's chain of dependent loads:
 * keys are read as vec4s from a fixed-length loop, and values four keys at a time, so that loads
 * overlap (one key at a time took ~60 us a layer on an H200, most of a decode step's attention).
 * Grid: T * Hq workgroups folded into 2-D. Option headDim (a multiple of 4) sizes the loops.
 * attentionTrainingForward computes the same over a packed training pass (one buffer of T rows, each
 * row seeing the keys its visibility rule names: its shared prompt and its own segment, see
 * attention-visibility.ts) and also writes each row's log-sum-exp of scaled scores
 * (attentionForwardRef's lse), from which attention-backward.ts rebuilds the softmax. It serves a
 * training pass, thousands of rows at once, so it gives each (t, h) row one thread that walks the keys
 * alone (online softmax over single keys): no barriers, where the workgroup-per-row kernel waits at a
 * dozen per block of keys. Rows are ordered head-major within a workgroup, so neighbouring threads
 * read the same keys. On a CPU adapter (SwiftShader), where every barrier switches every thread of
 * the workgroup, the workgroup-per-row kernel made attention a quarter of a training step.
 */
import { BatonError } from '../../core/errors/index.ts';
import type { BindingSpec, KernelSpec, UniformSpec } from '../device/index.ts';
import { grid2d, header, treeReduce } from './wgsl.ts';

const WG = 64;

export interface AttentionOptions {
  readonly headDim: number;
}

type AttentionBindings = 'q' | 'k' | 'v' | 'slots' | 'out';
type AttentionUniforms = 'T' | 'Tq' | 'slotStride' | 'Hq' | 'Hkv' | 'startPos' | 'scale';

const BINDINGS: readonly BindingSpec<AttentionBindings>[] = [
  { name: 'q', access: 'read' }, // (T, Hq, D)
  { name: 'k', access: 'read' }, // (slots, slotStride) cache, each slot (S, Hkv, D), read as vec4
  { name: 'v', access: 'read' }, // (slots, slotStride) cache
  { name: 'slots', access: 'read' }, // (T / Tq) u32: the cache slot of each sequence
  { name: 'out', access: 'read_write' }, // (T, Hq, D)
];

const ATTENTION_UNIFORMS: readonly UniformSpec<AttentionUniforms>[] = [
  { name: 'T', type: 'u32' },
  { name: 'Tq', type: 'u32' }, // query rows per sequence
  { name: 'slotStride', type: 'u32' }, // values between cache slots
  { name: 'Hq', type: 'u32' },
  { name: 'Hkv', type: 'u32' },
  { name: 'startPos', type: 'u32' },
  { name: 'scale', type: 'f32' },
];

function forwardWgsl(spec: KernelSpec<AttentionOptions, string, AttentionUniforms>, D: number): string {
  if (D % 4 !== 0) {
    throw new BatonError({
      code: 'engine/unsupported',
      message: `Baton's engine needs a head size that is a multiple of 4; this model's is ${D}.`,
      data: { headDim: D },
    });
  }
  const types: Record<string, string> = { q: 'f32', k: 'vec4<f32>', v: 'f32', slots: 'u32', out: 'f32' };
  return `${header(spec, types)}
${attentionArrays(D)}
@compute @workgroup_size(${WG})
fn main(@builtin(workgroup_id) wid: vec3<u32>, @builtin(num_workgroups) nwg: vec3<u32>, @builtin(local_invocation_index) lid: u32) {
  let row = flat_group(wid, nwg);
  if (row >= p.T * p.Hq) { return; }
  let t = row / p.Hq;
  let h = row % p.Hq;
  let kvh = h / (p.Hq / p.Hkv);
  let kvStride = p.Hkv * D;
  let slotBase = slots[t / p.Tq] * p.slotStride;
  for (var d = lid; d < D4; d += ${WG}u) {
    let qi = row * D + 4u * d;
    qs[d] = vec4<f32>(q[qi], q[qi + 1u], q[qi + 2u], q[qi + 3u]) * p.scale;
  }
  workgroupBarrier();
  let keys = p.startPos + t % p.Tq + 1u;
  ${attendKeys(D, false)}
}`;
}

/**
 * The workgroup-memory arrays and the loop of attention over keys 0 .. keys - 1 of one query row (online softmax
 * over blocks of 64 keys), shared by attentionForward and attention-decode.ts. Needs in scope: qs (the scaled
 * query, vec4s, declared by attentionArrays), lid, keys, slotBase (where the row's cache slot starts), kvh,
 * kvStride (values between key rows), the caches k (vec4s) and v; writes out[row * D + d]. With `fresh`, the
 * last key and value come from the workgroup arrays kNew (vec4s) and vNew instead of the cache, whose row
 * another workgroup may still be writing, and the caches are kc and vc, the key cache read as scalars (it is
 * written through the same binding).
 */
export function attendKeys(D: number, fresh: boolean): string {
  const perThread = Math.ceil(D / WG);
  const cachedKey = fresh
    ? `let kb = slotBase + j * kvStride + kvh * D;
      for (var d = 0u; d < D4; d++) { dots += qs[d] * vec4<f32>(kc[kb + 4u * d], kc[kb + 4u * d + 1u], kc[kb + 4u * d + 2u], kc[kb + 4u * d + 3u]); }`
    : `let kb = (slotBase + j * kvStride + kvh * D) / 4u;
      for (var d = 0u; d < D4; d++) { dots += qs[d] * k[kb + d]; }`;
  const key = fresh ? `if (j == keys - 1u) { for (var d = 0u; d < D4; d++) { dots += qs[d] * kNew[d]; } } else { ${cachedKey} }` : cachedKey;
  // A fresh last value replaces the cache's; the cache is then read no further than the row before it.
  const value = (j: string) => (fresh ? `select(vc[vb + min(${j}, cachedLast) * kvStride], vNew[d], ${j} >= last)` : `v[vb + min(${j}, last) * kvStride]`);
  return `var m = -1e30;
  var l = 0.0;
  var acc: array<f32, ${perThread}>;
  for (var base = 0u; base < keys; base += ${WG}u) {
    let j = base + lid;
    var s = -1e30;
    if (j < keys) {
      var dots = vec4<f32>(0.0);
      ${key}
      s = dots.x + dots.y + dots.z + dots.w;
    }
    red[lid] = s;
    ${treeReduce('red', WG, (a, b) => `max(${a}, ${b})`)}
    let mNew = max(m, red[0]);
    workgroupBarrier();
    var e = 0.0;
    if (j < keys) { e = exp(s - mNew); }
    prob[lid] = e;
    red[lid] = e;
    ${treeReduce('red', WG, (a, b) => `${a} + ${b}`)}
    let correction = exp(m - mNew);
    l = l * correction + red[0];
    m = mNew;
    // prob is 0 past the last key; value rows past it are clamped to the last key (never past the cache).
    let count = min(${WG}u, keys - base);
    let last = keys - 1u;
    ${fresh ? 'let cachedLast = max(last, 1u) - 1u;' : ''}
    for (var i = 0u; i < ${perThread}u; i++) {
      let d = lid + i * ${WG}u;
      if (d < D) {
        let vb = slotBase + kvh * D + d;
        var a = acc[i] * correction;
        for (var jj = 0u; jj < count; jj += 4u) {
          let j0 = base + jj;
          let v0 = ${value('j0')};
          let v1 = ${value('(j0 + 1u)')};
          let v2 = ${value('(j0 + 2u)')};
          let v3 = ${value('(j0 + 3u)')};
          a += prob[jj] * v0 + prob[jj + 1u] * v1 + prob[jj + 2u] * v2 + prob[jj + 3u] * v3;
        }
        acc[i] = a;
      }
    }
    workgroupBarrier();
  }
  for (var i = 0u; i < ${perThread}u; i++) {
    let d = lid + i * ${WG}u;
    if (d < D) { out[row * D + d] = acc[i] / l; }
  }`;
}

/** The workgroup arrays attendKeys reads and writes, for a head size D. */
export function attentionArrays(D: number): string {
  return `const D = ${D}u;
const D4 = ${D / 4}u;
var<workgroup> qs: array<vec4<f32>, D4>;
var<workgroup> prob: array<f32, ${WG}>;
var<workgroup> red: array<f32, ${WG}>;`;
}

export const attentionForward: KernelSpec<AttentionOptions, AttentionBindings, AttentionUniforms> = {
  name: 'attentionForward',
  bindings: BINDINGS,
  uniforms: ATTENTION_UNIFORMS,
  wgsl: (o) => forwardWgsl(attentionForward, o.headDim),
  grid: (u) => grid2d(u.T * u.Hq),
};

const ROWS_PER_GROUP = 64;

/** The training kernels' uniforms, shared with attention-backward.ts: a packed pass's T rows, their q, k and v one row each. */
export type TrainingAttentionUniforms = 'T' | 'Hq' | 'Hkv' | 'scale';

export const TRAINING_ATTENTION_UNIFORMS: readonly UniformSpec<TrainingAttentionUniforms>[] = [
  { name: 'T', type: 'u32' }, // packed rows
  { name: 'Hq', type: 'u32' },
  { name: 'Hkv', type: 'u32' },
  { name: 'scale', type: 'f32' },
];

/**
 * The keys of packed row t as a loop over n: its prefix, then its segment up to itself, key j. Needs
 * in scope t and vis, the row's rule (attention-visibility.ts); the body reads j.
 */
export function visibleKeysLoop(body: string): string {
  return `let prefix = vis.y - vis.x;
  let keys = prefix + t + 1u - vis.z;
  for (var n = 0u; n < keys; n++) {
    let j = select(vis.z + n - prefix, vis.x + n, n < prefix);
    ${body}
  }`;
}

function trainingForwardWgsl(spec: KernelSpec<AttentionOptions, string, TrainingAttentionUniforms>, D: number): string {
  if (D % 4 !== 0) {
    throw new BatonError({
      code: 'engine/unsupported',
      message: `Baton's engine needs a head size that is a multiple of 4; this model's is ${D}.`,
      data: { headDim: D },
    });
  }
  const types: Record<string, string> = { q: 'vec4<f32>', k: 'vec4<f32>', v: 'vec4<f32>', visibility: 'vec4<u32>', out: 'vec4<f32>', lse: 'f32' };
  return `${header(spec, types)}
const D4 = ${D / 4}u;
@compute @workgroup_size(${ROWS_PER_GROUP})
fn main(@builtin(workgroup_id) wid: vec3<u32>, @builtin(num_workgroups) nwg: vec3<u32>, @builtin(local_invocation_index) lid: u32) {
  // Thread i of the workgroup takes head i % Hq of query row t, so neighbours share their keys' rows.
  let row = flat_group(wid, nwg) * ${ROWS_PER_GROUP}u + lid;
  if (row >= p.T * p.Hq) { return; }
  let t = row / p.Hq;
  let h = row % p.Hq;
  let kvh = h / (p.Hq / p.Hkv);
  let kvStride = p.Hkv * D4;
  let vis = visibility[t];
  var qs: array<vec4<f32>, D4>;
  var acc: array<vec4<f32>, D4>;
  for (var d = 0u; d < D4; d++) {
    qs[d] = q[row * D4 + d] * p.scale;
    acc[d] = vec4<f32>(0.0);
  }
  var m = -1e30;
  var l = 0.0;
  ${visibleKeysLoop(`let kb = j * kvStride + kvh * D4;
    var dots = vec4<f32>(0.0);
    for (var d = 0u; d < D4; d++) { dots += qs[d] * k[kb + d]; }
    let s = dots.x + dots.y + dots.z + dots.w;
    let mNew = max(m, s);
    let correction = exp(m - mNew);
    let e = exp(s - mNew);
    l = l * correction + e;
    for (var d = 0u; d < D4; d++) { acc[d] = acc[d] * correction + e * v[kb + d]; }
    m = mNew;`)}
  for (var d = 0u; d < D4; d++) { out[row * D4 + d] = acc[d] / l; }
  lse[row] = m + log(l);
}`;
}

/**
 * attentionForward's output over a packed training pass (each row sees the keys of its visibility
 * rule), one thread a row, also saving each row's log-sum-exp for the backward.
 */
export const attentionTrainingForward: KernelSpec<AttentionOptions, 'q' | 'k' | 'v' | 'visibility' | 'out' | 'lse', TrainingAttentionUniforms> = {
  name: 'attentionTrainingForward',
  bindings: [
    { name: 'q', access: 'read' }, // (T, Hq, D)
    { name: 'k', access: 'read' }, // (T, Hkv, D) the rows' rotated keys
    { name: 'v', access: 'read' }, // (T, Hkv, D)
    { name: 'visibility', access: 'read' }, // (T, 4) u32, attention-visibility.ts
    { name: 'out', access: 'read_write' }, // (T, Hq, D)
    { name: 'lse', access: 'read_write' }, // (T, Hq)
  ],
  uniforms: TRAINING_ATTENTION_UNIFORMS,
  wgsl: (o) => trainingForwardWgsl(attentionTrainingForward, o.headDim),
  grid: (u) => grid2d(Math.ceil((u.T * u.Hq) / ROWS_PER_GROUP)),
};

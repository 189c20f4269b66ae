/**
 * Rotary position embedding, a port of ropeRef and ropeBackwardRef in rope.ref.ts, fused with the
 * KV-cache append (the cache write of forward.ref.ts) into one dispatch per layer: q (T, H, D) is
 * rotated in place; k (T, KV, D) is rotated into the key cache and v copied into the value cache,
 * token t of sequence b = t / Tq landing at row startPos + t % Tq of cache slot slots[b]. As two rope
 * dispatches and two copies, a decode step spent about a tenth of its GPU time here (~10 us per
 * operation on an H200, whatever its size).
 * Training runs the same forward with a plain (B, S, KV, D) buffer as the "cache" (slotStride
 * S * KV * D, rows below startPos holding the shared prompt's keys), and ropeCacheBackward, its
 * transpose, maps the gradients back: dq un-rotated in place, dk un-rotated and dv copied out of
 * each slot's rows startPos .. startPos + Tq - 1 (the prompt rows' gradients stay for the caller).
 * The cos/sin table is computed on the CPU in float64 (`ropeTable`) for the positions of this call
 * and uploaded: WGSL's sin and cos are only accurate near [-pi, pi], and angles reach thousands of
 * radians at long positions.
 * Grid: one thread per rotated pair of a query or key head (T * (H + KV) * D/2), 256 per
 * workgroup; key threads also move the value pair beside their key pair.
 */
import type { KernelSpec, UniformSpec } from '../device/index.ts';
import { ceilDiv, grid2d, header } from './wgsl.ts';

const WG = 256;

/** (T, D/2, 2) of [cos, sin] for positions startPos .. startPos + T - 1. */
export function ropeTable(invFreq: ArrayLike<number>, startPos: number, T: number): Float32Array {
  const half = invFreq.length;
  const table = new Float32Array(T * half * 2);
  for (let t = 0; t < T; t++) {
    for (let i = 0; i < half; i++) {
      const angle = (startPos + t) * invFreq[i];
      table[(t * half + i) * 2] = Math.cos(angle);
      table[(t * half + i) * 2 + 1] = Math.sin(angle);
    }
  }
  return table;
}

type RopeUniforms = 'T' | 'Tq' | 'H' | 'KV' | 'D' | 'startPos' | 'slotStride';

const UNIFORMS: readonly UniformSpec<RopeUniforms>[] = [
  { name: 'T', type: 'u32' },
  { name: 'Tq', type: 'u32' }, // tokens per sequence
  { name: 'H', type: 'u32' },
  { name: 'KV', type: 'u32' },
  { name: 'D', type: 'u32' },
  { name: 'startPos', type: 'u32' },
  { name: 'slotStride', type: 'u32' }, // values between cache slots
];

/**
 * The body shared by both directions. Forward: q rotated in place, k rotated from its token row to
 * its cache row, v copied along. Backward: the same with sin negated (the transpose of a rotation)
 * and the moves reversed, from the cache row to the token row.
 */
function ropeCacheMain(backward: boolean): string {
  const [q, kFrom, kTo, vFrom, vTo] = backward ? ['dq', 'dkc', 'dk', 'dvc', 'dv'] : ['q', 'k', 'kc', 'v', 'vc'];
  const [from, to] = backward ? ['cached', 'row'] : ['row', 'cached'];
  return `fn rotate(a: f32, b: f32, c: f32, s: f32) -> vec2<f32> { return vec2<f32>(a * c - b * s, b * c + a * s); }
@compute @workgroup_size(${WG})
fn main(@builtin(workgroup_id) wid: vec3<u32>, @builtin(num_workgroups) nwg: vec3<u32>, @builtin(local_invocation_index) lid: u32) {
  let half = p.D / 2u;
  let heads = p.H + p.KV;
  let j = flat_group(wid, nwg) * ${WG}u + lid;
  if (j >= p.T * heads * half) { return; }
  let i = j % half;
  let th = j / half;
  let t = th / heads;
  let h = th % heads;
  let c = cs[(t * half + i) * 2u];
  let s = ${backward ? '-' : ''}cs[(t * half + i) * 2u + 1u];
  if (h < p.H) {
    let base = (t * p.H + h) * p.D;
    let r = rotate(${q}[base + i], ${q}[base + i + half], c, s);
    ${q}[base + i] = r.x;
    ${q}[base + i + half] = r.y;
    return;
  }
  let kh = h - p.H;
  let row = (t * p.KV + kh) * p.D;
  let cached = slots[t / p.Tq] * p.slotStride + ((p.startPos + t % p.Tq) * p.KV + kh) * p.D;
  let r = rotate(${kFrom}[${from} + i], ${kFrom}[${from} + i + half], c, s);
  ${kTo}[${to} + i] = r.x;
  ${kTo}[${to} + i + half] = r.y;
  ${vTo}[${to} + i] = ${vFrom}[${from} + i];
  ${vTo}[${to} + i + half] = ${vFrom}[${from} + i + half];
}`;
}

export const ropeCacheForward: KernelSpec<Record<string, never>, 'q' | 'k' | 'v' | 'cs' | 'slots' | 'kc' | 'vc', RopeUniforms> = {
  name: 'ropeCacheForward',
  bindings: [
    { name: 'q', access: 'read_write' }, // (T, H, D)
    { name: 'k', access: 'read' }, // (T, KV, D)
    { name: 'v', access: 'read' }, // (T, KV, D)
    { name: 'cs', access: 'read' }, // (T, D/2, 2)
    { name: 'slots', access: 'read' }, // (T / Tq) u32
    { name: 'kc', access: 'read_write' }, // (slots, slotStride) key cache, each slot (S, KV, D)
    { name: 'vc', access: 'read_write' }, // (slots, slotStride) value cache
  ],
  uniforms: UNIFORMS,
  wgsl: () => `${header(ropeCacheForward, { q: 'f32', k: 'f32', v: 'f32', cs: 'f32', slots: 'u32', kc: 'f32', vc: 'f32' })}
${ropeCacheMain(false)}`,
  grid: (u) => grid2d(ceilDiv(u.T * (u.H + u.KV) * (u.D / 2), WG)),
};

export const ropeCacheBackward: KernelSpec<Record<string, never>, 'dq' | 'dk' | 'dv' | 'cs' | 'slots' | 'dkc' | 'dvc', RopeUniforms> = {
  name: 'ropeCacheBackward',
  bindings: [
    { name: 'dq', access: 'read_write' }, // (T, H, D) gradient of the rotated q in, of q before rope out
    { name: 'dk', access: 'read_write' }, // (T, KV, D) out: gradient of k before rope
    { name: 'dv', access: 'read_write' }, // (T, KV, D) out
    { name: 'cs', access: 'read' }, // (T, D/2, 2), as in the forward
    { name: 'slots', access: 'read' }, // (T / Tq) u32
    { name: 'dkc', access: 'read' }, // (slots, slotStride) gradient of the rotated keys, each slot (S, KV, D)
    { name: 'dvc', access: 'read' }, // (slots, slotStride) gradient of the values
  ],
  uniforms: UNIFORMS,
  wgsl: () => `${header(ropeCacheBackward, { dq: 'f32', dk: 'f32', dv: 'f32', cs: 'f32', slots: 'u32', dkc: 'f32', dvc: 'f32' })}
${ropeCacheMain(true)}`,
  grid: ropeCacheForward.grid,
};

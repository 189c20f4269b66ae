/**
 * Rotary position embedding, a port of ropeRef in rope.ref.ts, fused with the KV-cache append
 * (the cache write of forward.ref.ts) into one dispatch per layer: q (T, H, D) is rotated in place;
 * k (T, KV, D) is rotated into the key cache and v copied into the value cache, token t of sequence
 * b = t / Tq landing at row startPos + t % Tq of cache slot slots[b]. As two rope dispatches and
 * two copies, a decode step spent about a tenth of its GPU time here (~10 us per operation on an
 * H200, whatever its size).
 * The cos/sin table is computed on the CPU in float64 (`ropeTable`) for the positions of this call
 * and uploaded: WGSL's sin and cos are only accurate near [-pi, pi], and angles reach thousands of
 * radians at long positions.
 * Grid: one thread per rotated pair of a query or key head (T * (H + KV) * D/2), 256 per
 * workgroup; key threads also copy the value pair beside their key pair.
 */
import type { KernelSpec } from '../device/index.ts';
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

export const ropeCacheForward: KernelSpec<
  Record<string, never>,
  'q' | 'k' | 'v' | 'cs' | 'slots' | 'kc' | 'vc',
  'T' | 'Tq' | 'H' | 'KV' | 'D' | 'startPos' | 'slotStride'
> = {
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
  uniforms: [
    { name: 'T', type: 'u32' },
    { name: 'Tq', type: 'u32' }, // tokens per sequence
    { name: 'H', type: 'u32' },
    { name: 'KV', type: 'u32' },
    { name: 'D', type: 'u32' },
    { name: 'startPos', type: 'u32' },
    { name: 'slotStride', type: 'u32' }, // values between cache slots
  ],
  wgsl: () => `${header(ropeCacheForward, { q: 'f32', k: 'f32', v: 'f32', cs: 'f32', slots: 'u32', kc: 'f32', vc: 'f32' })}
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
  let s = cs[(t * half + i) * 2u + 1u];
  if (h < p.H) {
    let base = (t * p.H + h) * p.D;
    let a = q[base + i];
    let b = q[base + i + half];
    q[base + i] = a * c - b * s;
    q[base + i + half] = b * c + a * s;
    return;
  }
  let kh = h - p.H;
  let src = (t * p.KV + kh) * p.D;
  let dst = slots[t / p.Tq] * p.slotStride + ((p.startPos + t % p.Tq) * p.KV + kh) * p.D;
  let a = k[src + i];
  let b = k[src + i + half];
  kc[dst + i] = a * c - b * s;
  kc[dst + i + half] = b * c + a * s;
  vc[dst + i] = v[src + i];
  vc[dst + i + half] = v[src + i + half];
}`,
  grid: (u) => grid2d(ceilDiv(u.T * (u.H + u.KV) * (u.D / 2), WG)),
};

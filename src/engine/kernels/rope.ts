/**
 * Rotary position embedding in place, a port of ropeRef in model/ops.ref.ts. The cos/sin table is computed on the
 * CPU in float64 (`ropeTable`) for the positions of this call and uploaded: WGSL's sin and cos are
 * only accurate near [-pi, pi], and angles reach thousands of radians at long positions.
 * Grid: one thread per rotated pair (T * H * D/2), 256 per workgroup.
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

export const ropeForward: KernelSpec<Record<string, never>, 'x' | 'cs', 'T' | 'H' | 'D'> = {
  name: 'ropeForward',
  bindings: [
    { name: 'x', access: 'read_write' }, // (T, H, D)
    { name: 'cs', access: 'read' }, // (T, D/2, 2)
  ],
  uniforms: [
    { name: 'T', type: 'u32' },
    { name: 'H', type: 'u32' },
    { name: 'D', type: 'u32' },
  ],
  wgsl: () => `${header(ropeForward, { x: 'f32', cs: 'f32' })}
@compute @workgroup_size(${WG})
fn main(@builtin(workgroup_id) wid: vec3<u32>, @builtin(num_workgroups) nwg: vec3<u32>, @builtin(local_invocation_index) lid: u32) {
  let half = p.D / 2u;
  let j = flat_group(wid, nwg) * ${WG}u + lid;
  if (j >= p.T * p.H * half) { return; }
  let i = j % half;
  let th = j / half;
  let t = th / p.H;
  let base = th * p.D;
  let c = cs[(t * half + i) * 2u];
  let s = cs[(t * half + i) * 2u + 1u];
  let a = x[base + i];
  let b = x[base + i + half];
  x[base + i] = a * c - b * s;
  x[base + i + half] = b * c + a * s;
}`,
  grid: (u) => grid2d(ceilDiv(u.T * u.H * (u.D / 2), WG)),
};

/**
 * SwiGLU, a port of swigluRef in swiglu.ref.ts: out (n) = silu(gate) * up, and its backward (swigluBackward).
 * One thread per value, 256 per workgroup.
 */
import type { KernelSpec } from '../device/index.ts';
import { ceilDiv, grid2d, header } from './wgsl.ts';

const WG = 256;

export const swigluForward: KernelSpec<Record<string, never>, 'gate' | 'up' | 'out', 'n'> = {
  name: 'swigluForward',
  bindings: [
    { name: 'gate', access: 'read' }, // (T, I)
    { name: 'up', access: 'read' }, // (T, I)
    { name: 'out', access: 'read_write' }, // (T, I)
  ],
  uniforms: [{ name: 'n', type: 'u32' }],
  wgsl: () => `${header(swigluForward, { gate: 'f32', up: 'f32', out: 'f32' })}
@compute @workgroup_size(${WG})
fn main(@builtin(workgroup_id) wid: vec3<u32>, @builtin(num_workgroups) nwg: vec3<u32>, @builtin(local_invocation_index) lid: u32) {
  let i = flat_group(wid, nwg) * ${WG}u + lid;
  if (i >= p.n) { return; }
  let g = gate[i];
  out[i] = g / (1.0 + exp(-g)) * up[i];
}`,
  grid: (u) => grid2d(ceilDiv(u.n, WG)),
};

/**
 * Backward of SwiGLU, a port of swigluBackwardRef in swiglu.ref.ts: with s = sigmoid(gate),
 * dgate = dy * up * s (1 + gate (1 - s)), dup = dy * gate * s. Recomputes s from the saved gate.
 * One thread per value, 256 per workgroup.
 */
export const swigluBackward: KernelSpec<Record<string, never>, 'dy' | 'gate' | 'up' | 'dgate' | 'dup', 'n'> = {
  name: 'swigluBackward',
  bindings: [
    { name: 'dy', access: 'read' }, // (T, I)
    { name: 'gate', access: 'read' }, // (T, I)
    { name: 'up', access: 'read' }, // (T, I)
    { name: 'dgate', access: 'read_write' }, // (T, I)
    { name: 'dup', access: 'read_write' }, // (T, I)
  ],
  uniforms: [{ name: 'n', type: 'u32' }],
  wgsl: () => `${header(swigluBackward, { dy: 'f32', gate: 'f32', up: 'f32', dgate: 'f32', dup: 'f32' })}
@compute @workgroup_size(${WG})
fn main(@builtin(workgroup_id) wid: vec3<u32>, @builtin(num_workgroups) nwg: vec3<u32>, @builtin(local_invocation_index) lid: u32) {
  let i = flat_group(wid, nwg) * ${WG}u + lid;
  if (i >= p.n) { return; }
  let g = gate[i];
  let s = 1.0 / (1.0 + exp(-g));
  dgate[i] = dy[i] * up[i] * s * (1.0 + g * (1.0 - s));
  dup[i] = dy[i] * g * s;
}`,
  grid: (u) => grid2d(ceilDiv(u.n, WG)),
};

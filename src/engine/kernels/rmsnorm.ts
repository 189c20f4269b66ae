/**
 * RMSNorm, a port of rmsnormRef in rmsnorm.ref.ts: out (rows, C) = x / rms(x) * w, w (C) in the weight dtype.
 * One workgroup per row: strided sum of squares (f32), tree reduction, scale. A decode step's norm is a
 * single workgroup, so its time is the length of each thread's chain of loads: 256 threads keep it short
 * (64 took ~48 us a norm on an H200, most of a 896-wide row's time being 14 dependent loads per thread).
 * Serves the layer norms (rows = T, C = hidden) and Qwen3's per-head q/k norm (rows = T * heads, C = headDim).
 */
import type { KernelSpec } from '../device/index.ts';
import { grid2d, header, type DtypeOptions } from './wgsl.ts';

const WG = 256;

export const rmsnormForward: KernelSpec<DtypeOptions, 'x' | 'w' | 'out', 'rows' | 'C' | 'eps'> = {
  name: 'rmsnormForward',
  bindings: [
    { name: 'x', access: 'read' }, // (rows, C)
    { name: 'w', access: 'read' }, // (C)
    { name: 'out', access: 'read_write' }, // (rows, C)
  ],
  uniforms: [
    { name: 'rows', type: 'u32' },
    { name: 'C', type: 'u32' },
    { name: 'eps', type: 'f32' },
  ],
  wgsl: (o) => `${header(rmsnormForward, { x: 'f32', w: o.dtype, out: 'f32' }, o.dtype)}
var<workgroup> partial: array<f32, ${WG}>;
@compute @workgroup_size(${WG})
fn main(@builtin(workgroup_id) wid: vec3<u32>, @builtin(num_workgroups) nwg: vec3<u32>, @builtin(local_invocation_index) lid: u32) {
  let r = flat_group(wid, nwg);
  if (r >= p.rows) { return; }
  let base = r * p.C;
  var ss = 0.0;
  for (var c = lid; c < p.C; c += ${WG}u) { let v = x[base + c]; ss += v * v; }
  partial[lid] = ss;
  workgroupBarrier();
  for (var s = ${WG / 2}u; s > 0u; s >>= 1u) {
    if (lid < s) { partial[lid] += partial[lid + s]; }
    workgroupBarrier();
  }
  let inv = inverseSqrt(partial[0] / f32(p.C) + p.eps);
  for (var c = lid; c < p.C; c += ${WG}u) { out[base + c] = x[base + c] * inv * f32(w[c]); }
}`,
  grid: (u) => grid2d(u.rows),
};

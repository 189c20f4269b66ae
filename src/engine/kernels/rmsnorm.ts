/**
 * RMSNorm, a port of rmsnormRef in rmsnorm.ref.ts: out (rows, C) = x / rms(x) * w, w (C) in the weight dtype.
 * One workgroup per row: strided sum of squares (f32), tree reduction, scale. A decode step's norm is a
 * single workgroup, so its time is the length of each thread's chain of loads: 256 threads keep a hidden
 * row short (64 took ~48 us a norm on an H200, most of a 896-wide row's time being 14 dependent loads per
 * thread); narrower rows get fewer (rmsnormThreads).
 * Serves the layer norms (rows = T, C = hidden) and Qwen3's per-head q/k norm (rows = T * heads, C = headDim).
 * Its backward: rmsnormBackward (dx, and inv per row), then rmsnormBackwardWeight (dw) where w trains.
 */
import type { KernelSpec } from '../device/index.ts';
import { columnSumGrid, columnSumMain, grid2d, header, type DtypeOptions } from './wgsl.ts';

interface RmsnormOptions extends DtypeOptions {
  /** Threads per row's workgroup, a power of two: rmsnormThreads(C). */
  readonly threads: number;
}

/**
 * Threads for rows of width C: 256 for a hidden row, fewer for Qwen3's per-head norms (C = head_dim),
 * whose idle threads would still wait at every barrier; on a CPU adapter (SwiftShader) they made the
 * training forward's q/k norms most of its time.
 */
export function rmsnormThreads(C: number): number {
  return Math.min(256, Math.max(8, 2 ** Math.ceil(Math.log2(C))));
}

export const rmsnormForward: KernelSpec<RmsnormOptions, 'x' | 'w' | 'out', 'rows' | 'C' | 'eps'> = {
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
var<workgroup> partial: array<f32, ${o.threads}>;
@compute @workgroup_size(${o.threads})
fn main(@builtin(workgroup_id) wid: vec3<u32>, @builtin(num_workgroups) nwg: vec3<u32>, @builtin(local_invocation_index) lid: u32) {
  let r = flat_group(wid, nwg);
  if (r >= p.rows) { return; }
  let base = r * p.C;
  var ss = 0.0;
  for (var c = lid; c < p.C; c += ${o.threads}u) { let v = x[base + c]; ss += v * v; }
  partial[lid] = ss;
  workgroupBarrier();
  for (var s = ${o.threads / 2}u; s > 0u; s >>= 1u) {
    if (lid < s) { partial[lid] += partial[lid + s]; }
    workgroupBarrier();
  }
  let inv = inverseSqrt(partial[0] / f32(p.C) + p.eps);
  for (var c = lid; c < p.C; c += ${o.threads}u) { out[base + c] = x[base + c] * inv * f32(w[c]); }
}`,
  grid: (u) => grid2d(u.rows),
};

interface RmsnormBackwardOptions extends RmsnormOptions {
  /** Add dx into the buffer (the residual stream's gradient) instead of overwriting it. */
  readonly accumulate: boolean;
}

/**
 * Backward of RMSNorm to its input, a port of the dx of rmsnormBackwardRef in rmsnorm.ref.ts:
 *   dx = inv * dy * w - inv^3 / C * x * sum_c(dy * w * x),   inv = 1 / sqrt(mean(x^2) + eps)
 * One workgroup per row as in rmsnormForward, both sums reduced together; also writes inv per row
 * to `rstd` for rmsnormBackwardWeight.
 */
export const rmsnormBackward: KernelSpec<RmsnormBackwardOptions, 'dy' | 'x' | 'w' | 'dx' | 'rstd', 'rows' | 'C' | 'eps'> = {
  name: 'rmsnormBackward',
  bindings: [
    { name: 'dy', access: 'read' }, // (rows, C)
    { name: 'x', access: 'read' }, // (rows, C) the norm's input
    { name: 'w', access: 'read' }, // (C)
    { name: 'dx', access: 'read_write' }, // (rows, C)
    { name: 'rstd', access: 'read_write' }, // (rows) inv of each row
  ],
  uniforms: rmsnormForward.uniforms,
  wgsl: (o) => `${header(rmsnormBackward, { dy: 'f32', x: 'f32', w: o.dtype, dx: 'f32', rstd: 'f32' }, o.dtype)}
var<workgroup> squares: array<f32, ${o.threads}>;
var<workgroup> dots: array<f32, ${o.threads}>;
@compute @workgroup_size(${o.threads})
fn main(@builtin(workgroup_id) wid: vec3<u32>, @builtin(num_workgroups) nwg: vec3<u32>, @builtin(local_invocation_index) lid: u32) {
  let r = flat_group(wid, nwg);
  if (r >= p.rows) { return; }
  let base = r * p.C;
  var ss = 0.0;
  var wdx = 0.0;
  for (var c = lid; c < p.C; c += ${o.threads}u) {
    let v = x[base + c];
    ss += v * v;
    wdx += dy[base + c] * f32(w[c]) * v;
  }
  squares[lid] = ss;
  dots[lid] = wdx;
  workgroupBarrier();
  for (var s = ${o.threads / 2}u; s > 0u; s >>= 1u) {
    if (lid < s) {
      squares[lid] += squares[lid + s];
      dots[lid] += dots[lid + s];
    }
    workgroupBarrier();
  }
  let inv = inverseSqrt(squares[0] / f32(p.C) + p.eps);
  let k = inv * inv * inv / f32(p.C) * dots[0];
  for (var c = lid; c < p.C; c += ${o.threads}u) {
    let g = inv * dy[base + c] * f32(w[c]) - k * x[base + c];
    ${o.accumulate ? 'dx[base + c] += g;' : 'dx[base + c] = g;'}
  }
  if (lid == 0u) { rstd[r] = inv; }
}`,
  grid: (u) => grid2d(u.rows),
};

/**
 * Backward of RMSNorm to its weight, a port of the dweight of rmsnormBackwardRef in rmsnorm.ref.ts:
 * dw[c] (+)= sum over rows of dy[r, c] * x[r, c] * rstd[r], rstd from rmsnormBackward; a column sum
 * (wgsl.ts columnSumMain). Only full fine-tuning needs it: LoRA leaves norm weights frozen.
 */
export const rmsnormBackwardWeight: KernelSpec<{ readonly accumulate: boolean }, 'dy' | 'x' | 'rstd' | 'dw', 'rows' | 'C'> = {
  name: 'rmsnormBackwardWeight',
  bindings: [
    { name: 'dy', access: 'read' }, // (rows, C)
    { name: 'x', access: 'read' }, // (rows, C)
    { name: 'rstd', access: 'read' }, // (rows)
    { name: 'dw', access: 'read_write' }, // (C) f32
  ],
  uniforms: [
    { name: 'rows', type: 'u32' },
    { name: 'C', type: 'u32' },
  ],
  wgsl: (o) => `${header(rmsnormBackwardWeight, { dy: 'f32', x: 'f32', rstd: 'f32', dw: 'f32' })}
${columnSumMain({ term: 'dy[r * p.C + c] * x[r * p.C + c] * rstd[r]', rows: 'p.rows', columns: 'p.C', out: 'dw', accumulate: o.accumulate })}`,
  grid: (u) => columnSumGrid(u.C),
};

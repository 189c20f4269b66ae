/**
 * The global gradient norm on the GPU, a port of sumSquaresRef in clip.ref.ts: a two-level reduction.
 * sumSquaresPartial reduces one gradient buffer (n) into `groups` blocks, each thread striding over
 * the buffer, so a buffer of any length gets at most MAX_PARTIALS blocks; several buffers write their
 * blocks side by side into one partials buffer (from block `base`). sumSquaresFinish then reduces all
 * blocks in a single workgroup into total = [sum of squares, non-finite count], the one pair the
 * optimiser reads back.
 *
 * NaN and infinity are found by their exponent bits, not by float arithmetic: WGSL lets a compiler
 * assume floats are finite, so NaN cannot be trusted to survive a sum or a comparison. Non-finite values
 * are counted apart and left out of the sum, as the reference specifies.
 */
import type { KernelSpec } from '../device/index.ts';
import { ceilDiv, header } from '../kernels/index.ts';

const WG = 256;

/** Blocks per gradient buffer at most: enough workgroups to fill a large GPU, few enough for one finishing workgroup. */
export const MAX_PARTIALS = 1024;

/** Each block is two f32: its sum of squares and how many of its values were NaN or infinite. */
export const PARTIAL_FLOATS = 2;

/** Blocks sumSquaresPartial uses for a buffer of n values (its `groups` uniform). */
export function sumSquaresGroups(n: number): number {
  return Math.max(1, Math.min(ceilDiv(n, WG), MAX_PARTIALS));
}

/** Workgroup memory and the tree that sums each thread's (s, bad) into ss[0], bad[0]. */
const BLOCK_REDUCE = {
  decls: `var<workgroup> ss: array<f32, ${WG}>;
var<workgroup> bad: array<u32, ${WG}>;`,
  body: `ss[lid] = s;
  bad[lid] = b;
  workgroupBarrier();
  for (var k = ${WG / 2}u; k > 0u; k >>= 1u) {
    if (lid < k) { ss[lid] += ss[lid + k]; bad[lid] += bad[lid + k]; }
    workgroupBarrier();
  }`,
};

export const sumSquaresPartial: KernelSpec<Record<string, never>, 'grad' | 'partials', 'n' | 'groups' | 'base'> = {
  name: 'sumSquaresPartial',
  bindings: [
    { name: 'grad', access: 'read' }, // (n)
    { name: 'partials', access: 'read_write' }, // (blocks, 2) of all buffers; this one writes blocks base .. base + groups - 1
  ],
  uniforms: [
    { name: 'n', type: 'u32' },
    { name: 'groups', type: 'u32' },
    { name: 'base', type: 'u32' },
  ],
  wgsl: () => `${header(sumSquaresPartial, { grad: 'f32', partials: 'f32' })}
${BLOCK_REDUCE.decls}
@compute @workgroup_size(${WG})
fn main(@builtin(workgroup_id) wid: vec3<u32>, @builtin(local_invocation_index) lid: u32) {
  var s = 0.0;
  var b = 0u;
  for (var i = wid.x * ${WG}u + lid; i < p.n; i += p.groups * ${WG}u) {
    let x = grad[i];
    if ((bitcast<u32>(x) & 0x7f800000u) == 0x7f800000u) { b += 1u; } else { s += x * x; }
  }
  ${BLOCK_REDUCE.body}
  if (lid == 0u) {
    let at = ${PARTIAL_FLOATS}u * (p.base + wid.x);
    partials[at] = ss[0];
    partials[at + 1u] = f32(bad[0]);
  }
}`,
  grid: (u) => [u.groups, 1, 1],
};

export const sumSquaresFinish: KernelSpec<Record<string, never>, 'partials' | 'total', 'blocks'> = {
  name: 'sumSquaresFinish',
  bindings: [
    { name: 'partials', access: 'read' }, // (blocks, 2)
    { name: 'total', access: 'read_write' }, // (2) sum of squares, non-finite count
  ],
  uniforms: [{ name: 'blocks', type: 'u32' }],
  wgsl: () => `${header(sumSquaresFinish, { partials: 'f32', total: 'f32' })}
${BLOCK_REDUCE.decls}
@compute @workgroup_size(${WG})
fn main(@builtin(local_invocation_index) lid: u32) {
  var s = 0.0;
  var b = 0u;
  for (var i = lid; i < p.blocks; i += ${WG}u) {
    s += partials[${PARTIAL_FLOATS}u * i];
    b += u32(partials[${PARTIAL_FLOATS}u * i + 1u]);
  }
  ${BLOCK_REDUCE.body}
  if (lid == 0u) {
    total[0] = ss[0];
    total[1] = f32(bad[0]);
  }
}`,
  grid: () => [1, 1, 1],
};

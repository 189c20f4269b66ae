/**
 * Log-probability of the chosen token of each row, a port of logSoftmaxRef in logprobs.ref.ts (then a gather): numerically stable
 * (running max and rescaled sum per thread, f32 throughout), one workgroup of 256 threads per row
 * of the vocabulary, then a pairwise (max, sum) reduction. Logits are divided by the temperature
 * first, as GRPO's loss does. Grid: R workgroups folded into 2-D.
 */
import type { KernelSpec } from '../device/index.ts';
import { grid2d, header } from './wgsl.ts';

const WG = 256;

export const logprobsForward: KernelSpec<Record<string, never>, 'logits' | 'targets' | 'out', 'R' | 'V' | 'invTemperature'> = {
  name: 'logprobsForward',
  bindings: [
    { name: 'logits', access: 'read' }, // (R, V)
    { name: 'targets', access: 'read' }, // (R) u32
    { name: 'out', access: 'read_write' }, // (R)
  ],
  uniforms: [
    { name: 'R', type: 'u32' },
    { name: 'V', type: 'u32' },
    { name: 'invTemperature', type: 'f32' },
  ],
  wgsl: () => `${header(logprobsForward, { logits: 'f32', targets: 'u32', out: 'f32' })}
var<workgroup> maxes: array<f32, ${WG}>;
var<workgroup> sums: array<f32, ${WG}>;
@compute @workgroup_size(${WG})
fn main(@builtin(workgroup_id) wid: vec3<u32>, @builtin(num_workgroups) nwg: vec3<u32>, @builtin(local_invocation_index) lid: u32) {
  let r = flat_group(wid, nwg);
  if (r >= p.R) { return; }
  let base = r * p.V;
  var m = -1e30;
  var s = 0.0;
  for (var v = lid; v < p.V; v += ${WG}u) {
    let z = logits[base + v] * p.invTemperature;
    if (z > m) { s = s * exp(m - z) + 1.0; m = z; } else { s += exp(z - m); }
  }
  maxes[lid] = m;
  sums[lid] = s;
  workgroupBarrier();
  for (var w = ${WG / 2}u; w > 0u; w >>= 1u) {
    if (lid < w) {
      let m2 = max(maxes[lid], maxes[lid + w]);
      sums[lid] = sums[lid] * exp(maxes[lid] - m2) + sums[lid + w] * exp(maxes[lid + w] - m2);
      maxes[lid] = m2;
    }
    workgroupBarrier();
  }
  if (lid == 0u) { out[r] = logits[base + targets[r]] * p.invTemperature - (maxes[0] + log(sums[0])); }
}`,
  grid: (u) => grid2d(u.R),
};

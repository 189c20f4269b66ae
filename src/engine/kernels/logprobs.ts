/**
 * Log-probability of the chosen token of each row, a port of logprobsRef in logprobs.ref.ts (log-softmax,
 * then a gather), and its backward, a port of logprobsBackwardRef and entropyRef. Numerically stable
 * (running max and rescaled sum per thread, f32 throughout), one workgroup per row of the vocabulary
 * (logprobsThreads(V) threads), then a pairwise (max, sum) reduction. Logits are divided by the
 * temperature first, as GRPO's loss does. Grid: R workgroups folded into 2-D.
 */
import type { KernelSpec } from '../device/index.ts';
import { grid2d, header } from './wgsl.ts';

interface LogprobsOptions {
  /** Threads per row's workgroup, a power of two: logprobsThreads(V). */
  readonly threads: number;
}

/**
 * Threads for rows of V logits: 256 for a real vocabulary, fewer for a small one (at least 32 logits
 * a thread), whose idle threads would still wait at every barrier of the reduction: on a CPU adapter
 * (SwiftShader), where each barrier switches every thread, 256 threads over a 1,536-token vocabulary
 * made the training head's softmax passes a third of a step.
 */
export function logprobsThreads(V: number): number {
  return Math.min(256, Math.max(32, 2 ** Math.floor(Math.log2(V / 32))));
}

/**
 * WGSL declarations and the opening of `main` that leave, in every thread, row r's `lse` = log sum
 * exp(z) of z = logits[r] * invTemperature, and with `withMean`, `mean` = sum softmax(z) * z (what the
 * entropy lse - mean needs, from the same pass). Returns early past the last row.
 */
function rowSoftmaxStats(WG: number, withMean: boolean): string {
  const mean = (line: string) => (withMean ? line : '');
  return `var<workgroup> maxes: array<f32, ${WG}>;
var<workgroup> sums: array<f32, ${WG}>;
${mean(`var<workgroup> zsums: array<f32, ${WG}>;`)}
@compute @workgroup_size(${WG})
fn main(@builtin(workgroup_id) wid: vec3<u32>, @builtin(num_workgroups) nwg: vec3<u32>, @builtin(local_invocation_index) lid: u32) {
  let r = flat_group(wid, nwg);
  if (r >= p.R) { return; }
  let base = r * p.V;
  var m = -1e30;
  var s = 0.0;
  ${mean('var u = 0.0; // sum of exp(z - m) * z')}
  for (var v = lid; v < p.V; v += ${WG}u) {
    let z = logits[base + v] * p.invTemperature;
    if (z > m) {
      let c = exp(m - z);
      s = s * c + 1.0;
      ${mean('u = u * c + z;')}
      m = z;
    } else {
      let e = exp(z - m);
      s += e;
      ${mean('u += e * z;')}
    }
  }
  maxes[lid] = m;
  sums[lid] = s;
  ${mean('zsums[lid] = u;')}
  workgroupBarrier();
  for (var w = ${WG / 2}u; w > 0u; w >>= 1u) {
    if (lid < w) {
      let m2 = max(maxes[lid], maxes[lid + w]);
      let a = exp(maxes[lid] - m2);
      let b = exp(maxes[lid + w] - m2);
      sums[lid] = sums[lid] * a + sums[lid + w] * b;
      ${mean('zsums[lid] = zsums[lid] * a + zsums[lid + w] * b;')}
      maxes[lid] = m2;
    }
    workgroupBarrier();
  }
  let lse = maxes[0] + log(sums[0]);
  ${mean('let mean = zsums[0] / sums[0];')}`;
}

export const logprobsForward: KernelSpec<LogprobsOptions, 'logits' | 'targets' | 'out', 'R' | 'V' | 'invTemperature'> = {
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
  wgsl: (o) => `${header(logprobsForward, { logits: 'f32', targets: 'u32', out: 'f32' })}
${rowSoftmaxStats(o.threads, false)}
  if (lid == 0u) { out[r] = logits[base + targets[r]] * p.invTemperature - lse; }
}`,
  grid: (u) => grid2d(u.R),
};

/**
 * Backward of logprobsForward given dLogp (R): dLogits[r, v] = dLogp[r] * ([v == target] - p[v]) *
 * invTemperature with p = softmax(logits[r] * invTemperature), written over the logits in place
 * (llm.c's fused classifier does the same: an (R, V) buffer is the largest of a training step, and
 * the logits are not needed after their gradient). Also writes each row's entropy lse - mean
 * (nats), a GRPO metric, from the same pass.
 */
export const logprobsBackward: KernelSpec<LogprobsOptions, 'logits' | 'targets' | 'dLogp' | 'entropy', 'R' | 'V' | 'invTemperature'> = {
  name: 'logprobsBackward',
  bindings: [
    { name: 'logits', access: 'read_write' }, // (R, V) logits in, dLogits out
    { name: 'targets', access: 'read' }, // (R) u32
    { name: 'dLogp', access: 'read' }, // (R)
    { name: 'entropy', access: 'read_write' }, // (R)
  ],
  uniforms: logprobsForward.uniforms,
  wgsl: (o) => `${header(logprobsBackward, { logits: 'f32', targets: 'u32', dLogp: 'f32', entropy: 'f32' })}
${rowSoftmaxStats(o.threads, true)}
  let g = dLogp[r] * p.invTemperature;
  let chosen = targets[r];
  for (var v = lid; v < p.V; v += ${o.threads}u) {
    let prob = exp(logits[base + v] * p.invTemperature - lse);
    logits[base + v] = g * (select(0.0, 1.0, v == chosen) - prob);
  }
  if (lid == 0u) { entropy[r] = lse - mean; }
}`,
  grid: (u) => grid2d(u.R),
};

/**
 * AdamW, a port of adamwRef in adamw.ref.ts: one thread per value updates param, m and v (n) in place
 * from grad (n), all f32 (master weights and moments). The per-step scalars (decay factor, bias-
 * corrected step size, clip coefficient) are worked out in float64 on the CPU by adamwUniforms and
 * arrive as uniforms, so the shader does only the elementwise part, 256 values per workgroup.
 */
import type { KernelSpec } from '../device/index.ts';
import { ceilDiv, grid2d, header } from '../kernels/index.ts';
import type { AdamWHyper } from './adamw.ref.ts';

const WG = 256;

type AdamWUniform = 'n' | 'decay' | 'beta1' | 'beta2' | 'stepSize' | 'bc2Sqrt' | 'eps' | 'clip';

export const adamwStep: KernelSpec<Record<string, never>, 'param' | 'grad' | 'm' | 'v', AdamWUniform> = {
  name: 'adamwStep',
  bindings: [
    { name: 'param', access: 'read_write' }, // (n)
    { name: 'grad', access: 'read' }, // (n)
    { name: 'm', access: 'read_write' }, // (n) first moment, exp_avg
    { name: 'v', access: 'read_write' }, // (n) second moment, exp_avg_sq
  ],
  uniforms: [
    { name: 'n', type: 'u32' },
    { name: 'decay', type: 'f32' }, // 1 - lr * weightDecay
    { name: 'beta1', type: 'f32' },
    { name: 'beta2', type: 'f32' },
    { name: 'stepSize', type: 'f32' }, // lr / (1 - beta1^t)
    { name: 'bc2Sqrt', type: 'f32' }, // sqrt(1 - beta2^t)
    { name: 'eps', type: 'f32' },
    { name: 'clip', type: 'f32' }, // global-norm clip coefficient
  ],
  wgsl: () => `${header(adamwStep, { param: 'f32', grad: 'f32', m: 'f32', v: 'f32' })}
@compute @workgroup_size(${WG})
fn main(@builtin(workgroup_id) wid: vec3<u32>, @builtin(num_workgroups) nwg: vec3<u32>, @builtin(local_invocation_index) lid: u32) {
  let i = flat_group(wid, nwg) * ${WG}u + lid;
  if (i >= p.n) { return; }
  let g = grad[i] * p.clip;
  let mi = p.beta1 * m[i] + (1.0 - p.beta1) * g;
  let vi = p.beta2 * v[i] + (1.0 - p.beta2) * g * g;
  m[i] = mi;
  v[i] = vi;
  param[i] = param[i] * p.decay - p.stepSize * mi / (sqrt(vi) / p.bc2Sqrt + p.eps);
}`,
  grid: (u) => grid2d(ceilDiv(u.n, WG)),
};

/** The kernel's uniforms for n values at these hyper-parameters (float64 here, rounded to f32 once). */
export function adamwUniforms(n: number, h: AdamWHyper): Record<AdamWUniform, number> {
  const t = h.step + 1;
  return {
    n,
    decay: 1 - h.lr * h.weightDecay,
    beta1: h.beta1,
    beta2: h.beta2,
    stepSize: h.lr / (1 - h.beta1 ** t),
    bc2Sqrt: Math.sqrt(1 - h.beta2 ** t),
    eps: h.eps,
    clip: h.clip,
  };
}

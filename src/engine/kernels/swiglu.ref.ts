/**
 * Float64 reference of SwiGLU: the specification swiglu.ts is a port of, and what its tests check it
 * against. Plain loops, row-major; dimension letters as in ../runtime/forward.ref.ts.
 */
import type { Vec } from './ref-types.ts';

/** silu(gate) * up, elementwise; silu(g) = g / (1 + e^-g). */
export function swigluRef(gate: Vec, up: Vec): Float64Array {
  const y = new Float64Array(gate.length);
  for (let i = 0; i < gate.length; i++) y[i] = (gate[i] / (1 + Math.exp(-gate[i]))) * up[i];
  return y;
}

/**
 * Backward of swigluRef given dy: with s = sigmoid(gate), silu(g) = g s and silu'(g) = s (1 + g (1 - s)),
 * so dgate = dy * up * s (1 + g (1 - s)) and dup = dy * g s.
 */
export function swigluBackwardRef(dy: Vec, gate: Vec, up: Vec): { dgate: Float64Array; dup: Float64Array } {
  const dgate = new Float64Array(gate.length);
  const dup = new Float64Array(gate.length);
  for (let i = 0; i < gate.length; i++) {
    const g = gate[i];
    const s = 1 / (1 + Math.exp(-g));
    dgate[i] = dy[i] * up[i] * s * (1 + g * (1 - s));
    dup[i] = dy[i] * g * s;
  }
  return { dgate, dup };
}

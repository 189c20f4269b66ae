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

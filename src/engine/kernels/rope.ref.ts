/**
 * Float64 reference of rotary position embedding (HF's rotate-half layout), forward and backward: the
 * specification rope.ts is a port of, and what its tests check it against. Plain loops, row-major;
 * dimension letters as in ../runtime/forward.ref.ts.
 */
import type { Vec } from './ref-types.ts';

/** Rotates each pair (i, i + D/2) of every head by `sign` * position * invFreq[i]. */
function rotate(x: Vec, T: number, heads: number, D: number, invFreq: Vec, startPos: number, sign: 1 | -1): Float64Array {
  const y = new Float64Array(T * heads * D);
  const half = D / 2;
  for (let t = 0; t < T; t++) {
    for (let i = 0; i < half; i++) {
      const angle = (startPos + t) * invFreq[i];
      const cos = Math.cos(angle);
      const sin = sign * Math.sin(angle);
      for (let h = 0; h < heads; h++) {
        const base = (t * heads + h) * D;
        const a = x[base + i];
        const b = x[base + i + half];
        y[base + i] = a * cos - b * sin;
        y[base + i + half] = b * cos + a * sin;
      }
    }
  }
  return y;
}

/**
 * Rotary embedding in HF's rotate-half layout: dimension i pairs with i + D/2.
 * x (T, heads, D); token t sits at position startPos + t; invFreq (D/2) from ropeInvFreq.
 */
export function ropeRef(x: Vec, T: number, heads: number, D: number, invFreq: Vec, startPos = 0): Float64Array {
  return rotate(x, T, heads, D, invFreq, startPos, 1);
}

/**
 * dx (T, heads, D) from dy: each pair's rotation is orthogonal, so its transpose is the rotation by
 * the opposite angle.
 */
export function ropeBackwardRef(dy: Vec, T: number, heads: number, D: number, invFreq: Vec, startPos = 0): Float64Array {
  return rotate(dy, T, heads, D, invFreq, startPos, -1);
}

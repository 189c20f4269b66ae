/**
 * Float64 reference of int4 weight quantisation followed by dequantisation: the specification that
 * int4.ts (packing) and the dequantising kernels (kernels/matmul-int4.ts, embedding-int4.ts) are
 * checked against.
 *
 * Scheme: symmetric, group-wise along each row. Every `groupSize` consecutive weights of a row share
 * one scale s = max|w| / 7, rounded to the scale's storage dtype; each weight becomes the integer
 * q = round(w / s) clamped to [-7, 7] and reads back as q * s. So |w - q s| <= s / 2 (plus the
 * scale's own rounding), i.e. at most max|w| / 14 of the group.
 *
 * Why symmetric: linear-layer weights are close to zero-mean per group, so a zero-point buys little
 * accuracy while costing a second stored value per group and a subtraction per weight; the bound
 * above is also simpler to test against. One of the 16 levels (-8) goes unused.
 */
import type { Dtype, Vec } from '../kernels/index.ts';
import { f16ToF32, f32ToF16 } from '../model/index.ts';

/** Largest magnitude of a quantised weight. */
export const INT4_MAX_LEVEL = 7;

/** A scale as stored: rounded to f32, or to f16 where the weights' float dtype is f16. */
export function storedScale(scale: number, dtype: Dtype): number {
  return dtype === 'f16' ? f16ToF32(f32ToF16(scale)) : Math.fround(scale);
}

/** The integer level of weight `w` under stored scale `s` (0 for an all-zero group). */
export function int4Level(w: number, s: number): number {
  if (s === 0) return 0;
  // + 0 turns Math.round's -0 (from small negative weights) into 0.
  return Math.max(-INT4_MAX_LEVEL, Math.min(INT4_MAX_LEVEL, Math.round(w / s))) + 0;
}

/** w (rows, cols) as it reads back after int4 quantisation; cols must be a multiple of groupSize. */
export function int4RoundTripRef(w: Vec, rows: number, cols: number, groupSize: number, scaleDtype: Dtype = 'f32'): Float64Array {
  const out = new Float64Array(rows * cols);
  for (let g = 0; g < (rows * cols) / groupSize; g++) {
    const start = g * groupSize;
    let absMax = 0;
    for (let i = start; i < start + groupSize; i++) absMax = Math.max(absMax, Math.abs(w[i]));
    const s = storedScale(absMax / INT4_MAX_LEVEL, scaleDtype);
    for (let i = start; i < start + groupSize; i++) out[i] = int4Level(w[i], s) * s;
  }
  return out;
}

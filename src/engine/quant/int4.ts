/**
 * Int4 weights as the GPU reads them (scheme and its reference: int4.ref.ts). A (rows, cols) matrix
 * becomes `packed` (rows, cols / 8) u32, eight weights per word, weight 8j + i of a row in bits
 * 4i..4i+3 of word j, stored as level + 8 (so 1..15); and `scales` (rows, cols / groupSize) in the
 * float dtype. Quantised on the CPU at load time, one tensor at a time.
 */
import { BatonError } from '../../core/errors/index.ts';
import type { Dtype } from '../kernels/index.ts';
import { f32ToF16 } from '../model/index.ts';
import { INT4_MAX_LEVEL, int4Level, storedScale } from './int4.ref.ts';

/** 32 weights per scale: 1 bit of f32 scale per weight on top of 4 (0.5 with f16 scales). */
export const INT4_GROUP_SIZE = 32;

export interface Int4Matrix {
  readonly rows: number;
  readonly cols: number;
  readonly groupSize: number;
  readonly scaleDtype: Dtype;
  readonly packed: Uint32Array; // (rows, cols / 8)
  readonly scales: Float32Array | Uint16Array; // (rows, cols / groupSize)
}

/** Whether a matrix with rows of `cols` weights can be stored as int4 groups of `groupSize`. */
export function int4Fits(cols: number, groupSize = INT4_GROUP_SIZE): boolean {
  return groupSize % 8 === 0 && cols % groupSize === 0;
}

export function quantizeInt4(values: Float32Array, rows: number, cols: number, scaleDtype: Dtype, groupSize = INT4_GROUP_SIZE): Int4Matrix {
  if (!int4Fits(cols, groupSize) || values.length !== rows * cols) {
    throw new BatonError({
      code: 'engine/unsupported',
      message: `int4 needs rows of a multiple of ${groupSize} weights and rows * cols values; got ${values.length} values as (${rows}, ${cols}). Load this tensor as f32 or f16.`,
      data: { rows, cols, groupSize },
    });
  }
  const groups = values.length / groupSize;
  const packed = new Uint32Array(values.length / 8);
  const scales = scaleDtype === 'f16' ? new Uint16Array(groups) : new Float32Array(groups);
  for (let g = 0; g < groups; g++) {
    const start = g * groupSize;
    let absMax = 0;
    for (let i = start; i < start + groupSize; i++) absMax = Math.max(absMax, Math.abs(values[i]));
    const s = storedScale(absMax / INT4_MAX_LEVEL, scaleDtype);
    scales[g] = scaleDtype === 'f16' ? f32ToF16(s) : s;
    for (let i = start; i < start + groupSize; i++) {
      packed[i >>> 3] |= (int4Level(values[i], s) + 8) << (4 * (i & 7));
    }
  }
  return { rows, cols, groupSize, scaleDtype, packed, scales };
}

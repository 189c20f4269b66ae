/** int4 packing (quant/int4.ts) against the float64 round-trip reference, and the reference's error bound. */
import { describe, expect, it } from 'vitest';
import { f16ToF32 } from '../../../src/engine/model/index.ts';
import { INT4_MAX_LEVEL, int4RoundTripRef, quantizeInt4, type Int4Matrix } from '../../../src/engine/quant/index.ts';
import { randomTensor } from '../../support/check-tensor.ts';

/** The matrix the packed words and scales stand for, decoded independently of the kernel. */
function unpack(m: Int4Matrix): Float64Array {
  const out = new Float64Array(m.rows * m.cols);
  for (let i = 0; i < out.length; i++) {
    const level = ((m.packed[Math.floor(i / 8)] >>> (4 * (i % 8))) & 15) - 8;
    const raw = m.scales[Math.floor(i / m.groupSize)];
    out[i] = level * (m.scaleDtype === 'f16' ? f16ToF32(raw) : raw);
  }
  return out;
}

describe('int4 quantisation', () => {
  const rows = 6;
  const cols = 64;
  const w = randomTensor(rows * cols, 31, -0.4, 0.4);
  w[5] = 3; // an outlier widens only its own group's scale

  it.each(['f32', 'f16'] as const)('packs exactly the levels and %s scales of the reference', (scaleDtype) => {
    const m = quantizeInt4(w, rows, cols, scaleDtype);
    expect(m.packed.length).toBe((rows * cols) / 8);
    expect(m.scales.length).toBe((rows * cols) / 32);
    expect(Array.from(unpack(m))).toEqual(Array.from(int4RoundTripRef(w, rows, cols, 32, scaleDtype)));
  });

  it('keeps every weight within half a step of its group, using levels up to +-7', () => {
    const back = int4RoundTripRef(w, rows, cols, 32);
    const levels = new Set<number>();
    for (let g = 0; g < (rows * cols) / 32; g++) {
      const group = w.subarray(g * 32, (g + 1) * 32);
      const step = Math.max(...Array.from(group, Math.abs)) / INT4_MAX_LEVEL;
      for (let i = 0; i < 32; i++) {
        expect(Math.abs(back[g * 32 + i] - group[i])).toBeLessThanOrEqual(step / 2 + 1e-7);
        levels.add(Math.round(back[g * 32 + i] / Math.fround(step)));
      }
    }
    expect(Math.max(...levels)).toBe(7);
    expect(Math.min(...levels)).toBe(-7);
    // The outlier's group is coarse, the others are not.
    expect(Math.abs(back[6] - w[6])).toBeGreaterThan(Math.abs(back[40] - w[40]));
  });

  it('maps an all-zero group to zeros', () => {
    const zeros = new Float32Array(32);
    expect(Array.from(unpack(quantizeInt4(zeros, 1, 32, 'f32')))).toEqual(Array.from(zeros));
  });

  it('refuses rows that are not a whole number of groups', () => {
    expect(() => quantizeInt4(new Float32Array(40), 1, 40, 'f32')).toThrow(/multiple of 32/);
  });
});

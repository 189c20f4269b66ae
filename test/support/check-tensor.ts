/**
 * Compares a GPU result with its float64 reference the way llm.c's check_tensor does: element i
 * passes when |gpu - ref| <= abs + |ref| * rel; on failure the message lists the first mismatches
 * (index, ref, gpu) and the worst error, so an indexing bug shows its pattern at once.
 */
import { seededRandom } from '../../src/core/random.ts';
import type { Dtype } from '../../src/engine/kernels/index.ts';
import { f16ToF32, f32ToF16 } from '../../src/engine/model/index.ts';

export interface Tolerance {
  abs: number;
  rel: number;
}

/** f32 kernels with short reductions. */
export const F32_TOLERANCE: Tolerance = { abs: 1e-5, rel: 1e-4 };

export function checkTensor(name: string, gpu: ArrayLike<number>, ref: ArrayLike<number>, tol: Tolerance = F32_TOLERANCE, show = 8): void {
  if (gpu.length !== ref.length) throw new Error(`${name}: length ${gpu.length} on the GPU, ${ref.length} in the reference`);
  let allZero = true;
  let worst = 0;
  let worstIndex = -1;
  const mismatches: string[] = [];
  let count = 0;
  for (let i = 0; i < ref.length; i++) {
    if (ref[i] !== 0) allZero = false;
    const err = Math.abs(gpu[i] - ref[i]);
    if (!(err <= tol.abs + Math.abs(ref[i]) * tol.rel)) {
      count++;
      if (mismatches.length < show) mismatches.push(`  [${i}] ref ${ref[i]} gpu ${gpu[i]}`);
    }
    if (!(err <= worst)) {
      worst = err;
      worstIndex = i;
    }
  }
  if (allZero) throw new Error(`${name}: the reference is all zeros, which would hide indexing bugs; use other inputs`);
  if (count > 0) {
    throw new Error(
      `${name}: ${count} of ${ref.length} values outside abs ${tol.abs} + rel ${tol.rel}; worst error ${worst} at [${worstIndex}]\n${mismatches.join('\n')}`,
    );
  }
}

/** n seeded uniform values in [lo, hi); pick ranges that keep references away from all-zero. */
export function randomTensor(n: number, seed: number, lo = -1, hi = 1): Float32Array {
  const random = seededRandom(seed);
  return Float32Array.from({ length: n }, () => lo + (hi - lo) * random());
}

/**
 * `values` stored in `dtype`: the array to upload, and the values a kernel then reads (f16-rounded
 * for f16), for its float64 reference. Kernels compute in f32 whatever the storage, so against
 * these values an f16 kernel meets the f32 tolerance.
 */
export function storedAs(dtype: Dtype, values: Float32Array): { data: Float32Array | Uint16Array; ref: Float64Array } {
  if (dtype === 'f32') return { data: values, ref: Float64Array.from(values) };
  const data = Uint16Array.from(values, f32ToF16);
  return { data, ref: Float64Array.from(data, f16ToF32) };
}

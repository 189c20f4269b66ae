/**
 * The float64 reference model with every weight as a loaded GpuModel stores it: f16 tensors
 * rounded to f16, int4 tensors read back from their groups (with f16 or f32 scales). A GPU model
 * must match this tightly whatever its format; the distance to the original weights is the
 * format's own cost, measured apart.
 */
import { f16ToF32, f32ToF16 } from '../../src/engine/model/index.ts';
import type { RefModel, ModelWeights } from '../../src/engine/runtime/index.ts';
import { int4RoundTripRef } from '../../src/engine/quant/index.ts';
import type { GpuTensor } from '../../src/engine/runtime/gpu-tensor.ts';

function stored(values: Float64Array | Float32Array, t: GpuTensor): Float64Array {
  if (t.int4) return int4RoundTripRef(values, t.rows, t.cols, t.int4.groupSize, t.dtype);
  if (t.dtype === 'f16') return Float64Array.from(values, (v) => f16ToF32(f32ToF16(v)));
  return Float64Array.from(values);
}

export function storedWeightsRef(ref: RefModel, weights: ModelWeights): RefModel {
  const tensors = [
    weights.embed,
    weights.norm,
    weights.lmHead,
    ...weights.layers.flatMap((l) => Object.values(l).filter((t): t is GpuTensor => t !== undefined)),
  ];
  const out = new Map(ref.weights);
  for (const t of tensors) out.set(t.name, stored(ref.weights.get(t.name)!, t));
  return { ...ref, weights: out };
}

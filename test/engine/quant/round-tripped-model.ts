/** The float64 reference model as int4 weights read it back: what an int4 GpuModel must match tightly. */
import { expectedShapes, weightNames } from '../../../src/engine/model/index.ts';
import { type RefModel } from '../../../src/engine/runtime/index.ts';
import { INT4_GROUP_SIZE, int4RoundTripRef } from '../../../src/engine/quant/index.ts';

/** The tensors GpuModel stores as int4: every projection, and the LM head when `head`. */
export function int4TensorNames(ref: RefModel, head: boolean): string[] {
  const names = weightNames(ref.config);
  const projections = names.layers.flatMap((l) => [l.q, l.k, l.v, l.o, l.gate, l.up, l.down]);
  return head ? [...projections, names.lmHead] : projections;
}

/** `ref` with the named (rows, cols) weights replaced by their int4 round trip. */
export function roundTripped(ref: RefModel, names: readonly string[]): RefModel {
  const shapes = expectedShapes(ref.config);
  const weights = new Map(ref.weights);
  for (const name of names) {
    const [rows, cols] = shapes.get(name)!;
    weights.set(name, int4RoundTripRef(ref.weights.get(name)!, rows, cols, INT4_GROUP_SIZE));
  }
  return { ...ref, weights };
}

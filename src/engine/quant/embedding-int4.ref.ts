/**
 * Float64 reference of the int4 embedding gather (kernels/embedding-int4.ts): kernels/embedding.ref.ts over the
 * table that int4 quantisation reads back (int4.ref.ts). table (V, C) is the float table before quantisation.
 * Here beside the scheme rather than beside its kernel, as matmul-int4.ref.ts.
 */
import { embeddingRef, type Dtype, type Vec } from '../kernels/index.ts';
import { int4RoundTripRef } from './int4.ref.ts';

export function embeddingInt4Ref(table: Vec, ids: readonly number[], V: number, C: number, groupSize: number, scaleDtype: Dtype = 'f32'): Float64Array {
  return embeddingRef(int4RoundTripRef(table, V, C, groupSize, scaleDtype), ids, C);
}

/**
 * Float64 reference of the int4 embedding gather (embedding-int4.ts): embedding.ref.ts over the table that
 * int4 quantisation reads back (quant/int4.ref.ts). table (V, C) is the float table before quantisation.
 */
import { int4RoundTripRef } from '../quant/index.ts';
import { embeddingRef } from './embedding.ref.ts';
import type { Vec } from './ref-types.ts';
import type { Dtype } from './wgsl.ts';

export function embeddingInt4Ref(table: Vec, ids: readonly number[], V: number, C: number, groupSize: number, scaleDtype: Dtype = 'f32'): Float64Array {
  return embeddingRef(int4RoundTripRef(table, V, C, groupSize, scaleDtype), ids, C);
}

/**
 * Float64 reference of the int4 matmul (matmul-int4.ts): the linear layer of matmul.ref.ts over the
 * weights that int4 quantisation reads back (quant/int4.ref.ts). W (outF, inF) is the float matrix before
 * quantisation.
 */
import { int4RoundTripRef } from '../quant/index.ts';
import { matmulBackwardInputRef, matmulRef } from './matmul.ref.ts';
import type { Vec } from './ref-types.ts';
import type { Dtype } from './wgsl.ts';

export function matmulInt4Ref(
  x: Vec,
  w: Vec,
  bias: Vec | undefined,
  T: number,
  inF: number,
  outF: number,
  groupSize: number,
  scaleDtype: Dtype = 'f32',
): Float64Array {
  return matmulRef(x, int4RoundTripRef(w, outF, inF, groupSize, scaleDtype), bias, T, inF, outF);
}

/** Backward of matmulInt4Ref to its input: dx (T, in) = dy (T, out) times the weights int4 reads back. */
export function matmulInt4BackwardInputRef(dy: Vec, w: Vec, T: number, inF: number, outF: number, groupSize: number, scaleDtype: Dtype = 'f32'): Float64Array {
  return matmulBackwardInputRef(dy, int4RoundTripRef(w, outF, inF, groupSize, scaleDtype), T, inF, outF);
}

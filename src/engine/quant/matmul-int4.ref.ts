/**
 * Float64 reference of the int4 matmul (kernels/matmul-int4.ts): the linear layer of kernels/matmul.ref.ts over the
 * weights that int4 quantisation reads back (int4.ref.ts). W (outF, inF) is the float matrix before quantisation.
 * Here beside the scheme rather than beside its kernel, so that quant/ depends on kernels/ and not the other way.
 */
import { matmulBackwardInputRef, matmulRef, type Dtype, type Vec } from '../kernels/index.ts';
import { int4RoundTripRef } from './int4.ref.ts';

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

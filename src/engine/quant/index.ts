/** Weight quantisation: int4 groups packed for the GPU, their float64 reference, and the references of the kernels that read them. */
export { INT4_GROUP_SIZE, int4Fits, quantizeInt4, type Int4Matrix } from './int4.ts';
export { INT4_MAX_LEVEL, int4Level, int4RoundTripRef, storedScale } from './int4.ref.ts';
export { embeddingInt4Ref } from './embedding-int4.ref.ts';
export { matmulInt4BackwardInputRef, matmulInt4Ref } from './matmul-int4.ref.ts';

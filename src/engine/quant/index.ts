/** Weight quantisation: int4 groups packed for the GPU, and their float64 reference. */
export { INT4_GROUP_SIZE, int4Fits, quantizeInt4, type Int4Matrix } from './int4.ts';
export { INT4_MAX_LEVEL, int4Level, int4RoundTripRef, storedScale } from './int4.ref.ts';

/**
 * Float64 reference of the embedding gather: the specification embedding.ts is a port of, and what its
 * tests check it against. Plain loops, row-major; dimension letters as in ../runtime/forward.ref.ts.
 */
import type { Vec } from './ref-types.ts';

/** Rows of table (V, C) for each id. */
export function embeddingRef(table: Vec, ids: readonly number[], C: number): Float64Array {
  const y = new Float64Array(ids.length * C);
  ids.forEach((id, t) => {
    for (let i = 0; i < C; i++) y[t * C + i] = table[id * C + i];
  });
  return y;
}

/**
 * Backward of embeddingRef: dTable (V, C) = sum over tokens t of dOut[t] scattered to row ids[t];
 * a repeated id accumulates the rows of all its tokens, rows of absent ids stay zero. dOut (T, C).
 */
export function embeddingBackwardRef(dOut: Vec, ids: readonly number[], V: number, C: number): Float64Array {
  const dTable = new Float64Array(V * C);
  ids.forEach((id, t) => {
    for (let i = 0; i < C; i++) dTable[id * C + i] += dOut[t * C + i];
  });
  return dTable;
}

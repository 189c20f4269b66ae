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

/**
 * Embedding gather, a port of embeddingRef in embedding.ref.ts: out (T, C) = table[ids] where table is (V, C).
 * The table may be split in row chunks (a vocabulary larger than one storage binding): each chunk
 * is one dispatch that writes only the rows whose id falls in [rowStart, rowStart + rows).
 * Grid: one thread per output value, 256 per workgroup. Its backward, embeddingBackward, is below.
 */
import type { KernelSpec } from '../device/index.ts';
import { ceilDiv, grid2d, header, type DtypeOptions } from './wgsl.ts';

const WG = 256;

export const embeddingForward: KernelSpec<DtypeOptions, 'ids' | 'table' | 'out', 'T' | 'C' | 'rowStart' | 'rows'> = {
  name: 'embeddingForward',
  bindings: [
    { name: 'ids', access: 'read' }, // (T) u32
    { name: 'table', access: 'read' }, // (rows, C) weights
    { name: 'out', access: 'read_write' }, // (T, C)
  ],
  uniforms: [
    { name: 'T', type: 'u32' },
    { name: 'C', type: 'u32' },
    { name: 'rowStart', type: 'u32' },
    { name: 'rows', type: 'u32' },
  ],
  wgsl: (o) => `${header(embeddingForward, { ids: 'u32', table: o.dtype, out: 'f32' }, o.dtype)}
@compute @workgroup_size(${WG})
fn main(@builtin(workgroup_id) wid: vec3<u32>, @builtin(num_workgroups) nwg: vec3<u32>, @builtin(local_invocation_index) lid: u32) {
  let i = flat_group(wid, nwg) * ${WG}u + lid;
  if (i >= p.T * p.C) { return; }
  let t = i / p.C;
  let c = i % p.C;
  let id = ids[t];
  if (id < p.rowStart || id >= p.rowStart + p.rows) { return; }
  out[i] = f32(table[(id - p.rowStart) * p.C + c]);
}`,
  grid: (u) => grid2d(ceilDiv(u.T * u.C, WG)),
};

/**
 * Token indices 0..T-1 ordered by id (ties in token order), so that the tokens of a repeated id are
 * adjacent: what embeddingBackward reads to sum them without atomics. ids come from the CPU anyway.
 */
export function tokensById(ids: ArrayLike<number>): Uint32Array {
  return Uint32Array.from({ length: ids.length }, (_, t) => t).sort((a, b) => ids[a] - ids[b] || a - b);
}

/**
 * Backward of the gather, a port of embeddingBackwardRef in embedding.ref.ts: dTable[id] += the sum of
 * dOut over the tokens of that id. Adds into dTable (zero it for a fresh gradient); rows of absent ids
 * are left as they are. Atomic-free: WGSL has no float atomics, so the thread of the first token of
 * each run of equal ids in `order` (tokensById) sums the whole run, one thread per (token, column),
 * neighbouring threads on neighbouring columns. Row chunks as in embeddingForward.
 */
export const embeddingBackward: KernelSpec<Record<string, never>, 'ids' | 'order' | 'dOut' | 'dTable', 'T' | 'C' | 'rowStart' | 'rows'> = {
  name: 'embeddingBackward',
  bindings: [
    { name: 'ids', access: 'read' }, // (T) u32
    { name: 'order', access: 'read' }, // (T) u32 token indices, equal ids adjacent
    { name: 'dOut', access: 'read' }, // (T, C)
    { name: 'dTable', access: 'read_write' }, // (rows, C) f32
  ],
  uniforms: [
    { name: 'T', type: 'u32' },
    { name: 'C', type: 'u32' },
    { name: 'rowStart', type: 'u32' },
    { name: 'rows', type: 'u32' },
  ],
  wgsl: () => `${header(embeddingBackward, { ids: 'u32', order: 'u32', dOut: 'f32', dTable: 'f32' })}
@compute @workgroup_size(${WG})
fn main(@builtin(workgroup_id) wid: vec3<u32>, @builtin(num_workgroups) nwg: vec3<u32>, @builtin(local_invocation_index) lid: u32) {
  let i = flat_group(wid, nwg) * ${WG}u + lid;
  if (i >= p.T * p.C) { return; }
  let j = i / p.C;
  let c = i % p.C;
  let id = ids[order[j]];
  if (id < p.rowStart || id >= p.rowStart + p.rows) { return; }
  if (j > 0u && ids[order[j - 1u]] == id) { return; }
  var sum = 0.0;
  for (var k = j; k < p.T; k++) {
    let t = order[k];
    if (ids[t] != id) { break; }
    sum += dOut[t * p.C + c];
  }
  dTable[(id - p.rowStart) * p.C + c] += sum;
}`,
  grid: (u) => grid2d(ceilDiv(u.T * u.C, WG)),
};

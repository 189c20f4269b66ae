/**
 * Embedding gather, a port of embeddingRef in embedding.ref.ts: out (T, C) = table[ids] where table is (V, C).
 * The table may be split in row chunks (a vocabulary larger than one storage binding): each chunk
 * is one dispatch that writes only the rows whose id falls in [rowStart, rowStart + rows).
 * Grid: one thread per output value, 256 per workgroup.
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

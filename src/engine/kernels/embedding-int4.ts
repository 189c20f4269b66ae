/**
 * Embedding gather from an int4 table, a port of embeddingInt4Ref in quant/embedding-int4.ref.ts: embeddingRef applied to the
 * table int4RoundTripRef (quant/int4.ref.ts) reads back: out (T, C) = dequantised table[ids]. Lets a
 * tied embedding live once, as int4, serving both the lookup and the LM head. Row chunks as in
 * embedding.ts. Grid: one thread per 8 output values (one packed word), 64 per workgroup.
 */
import type { KernelSpec } from '../device/index.ts';
import { ceilDiv, grid2d, header, type Dtype } from './wgsl.ts';

const WG = 64;

interface EmbeddingInt4Options {
  /** dtype of the scales. */
  readonly dtype: Dtype;
  readonly groupSize: number;
}

export const embeddingInt4Forward: KernelSpec<EmbeddingInt4Options, 'ids' | 'table' | 'scales' | 'out', 'T' | 'C' | 'rowStart' | 'rows'> = {
  name: 'embeddingInt4Forward',
  bindings: [
    { name: 'ids', access: 'read' }, // (T) u32
    { name: 'table', access: 'read' }, // (rows, C / 8) u32 packed levels
    { name: 'scales', access: 'read' }, // (rows, C / G)
    { name: 'out', access: 'read_write' }, // (T, C) f32
  ],
  uniforms: [
    { name: 'T', type: 'u32' },
    { name: 'C', type: 'u32' },
    { name: 'rowStart', type: 'u32' },
    { name: 'rows', type: 'u32' },
  ],
  wgsl: (o) => `${header(embeddingInt4Forward, { ids: 'u32', table: 'u32', scales: o.dtype, out: 'f32' }, o.dtype)}
@compute @workgroup_size(${WG})
fn main(@builtin(workgroup_id) wid: vec3<u32>, @builtin(num_workgroups) nwg: vec3<u32>, @builtin(local_invocation_index) lid: u32) {
  let words = p.C / 8u;
  let i = flat_group(wid, nwg) * ${WG}u + lid;
  if (i >= p.T * words) { return; }
  let t = i / words;
  let j = i % words;
  let id = ids[t];
  if (id < p.rowStart || id >= p.rowStart + p.rows) { return; }
  let row = id - p.rowStart;
  let packed = table[row * words + j];
  let s = f32(scales[row * (p.C / ${o.groupSize}u) + (j * 8u) / ${o.groupSize}u]);
  for (var k = 0u; k < 8u; k++) {
    out[t * p.C + j * 8u + k] = (f32((packed >> (4u * k)) & 15u) - 8.0) * s;
  }
}`,
  grid: (u) => grid2d(ceilDiv(u.T * (u.C / 8), WG)),
};

/**
 * WGSL shared by all kernels: the binding and uniform declarations generated from a kernel's spec
 * (so spec and shader cannot disagree), the weight storage type, the 2-D grid that lets a
 * kernel address more than 65,535 workgroups, and the column sum that backward kernels reduce with.
 */
import type { Grid, KernelSpec } from '../device/index.ts';

/** Storage dtype of weights. Activations and accumulation are f32 in every kernel. */
export type Dtype = 'f32' | 'f16';

export interface DtypeOptions {
  readonly dtype: Dtype;
}

/** WebGPU guarantees at least this many workgroups per grid dimension. */
const MAX_GROUPS = 65535;

/**
 * `enable f16;` (only for f16), one storage declaration per spec binding with the element type
 * given, the `Params` struct of the spec's uniforms bound as `p`.
 */
export function header<O, B extends string, U extends string>(spec: KernelSpec<O, B, U>, elementTypes: Record<B, string>, dtype: Dtype = 'f32'): string {
  const lines = dtype === 'f16' ? ['enable f16;'] : [];
  spec.bindings.forEach((b, i) => {
    const access = b.access === 'read' ? 'read' : 'read_write';
    lines.push(`@group(0) @binding(${i}) var<storage, ${access}> ${b.name}: array<${elementTypes[b.name]}>;`);
  });
  const members = spec.uniforms.length > 0 ? spec.uniforms.map((u) => `${u.name}: ${u.type}`) : ['unused: u32'];
  lines.push(`struct Params { ${members.join(', ')} }`);
  lines.push(`@group(0) @binding(${spec.bindings.length}) var<uniform> p: Params;`);
  lines.push(FLAT_ID);
  return lines.join('\n');
}

/** Index of a workgroup in the grid made by `grid2d`. */
const FLAT_ID = `fn flat_group(wid: vec3<u32>, nwg: vec3<u32>) -> u32 { return wid.y * nwg.x + wid.x; }`;

/** A grid of `groups` workgroups folded into two dimensions; kernels index it with `flat_group` and bound-check. */
export function grid2d(groups: number): Grid {
  if (groups <= MAX_GROUPS) return [groups, 1, 1];
  return [MAX_GROUPS, Math.ceil(groups / MAX_GROUPS), 1];
}

export function ceilDiv(a: number, b: number): number {
  return Math.ceil(a / b);
}

/**
 * WGSL of an in-place tree reduction over the workgroup array `array`, one entry per thread `lid`
 * (size a power of two, entries already written): it starts and ends on a barrier, after which
 * array[0] holds `combine` over all entries for every thread to read.
 */
export function treeReduce(array: string, size: number, combine: (a: string, b: string) => string): string {
  return `workgroupBarrier();
  for (var w = ${size / 2}u; w > 0u; w >>= 1u) {
    if (lid < w) { ${array}[lid] = ${combine(`${array}[lid]`, `${array}[lid + w]`)}; }
    workgroupBarrier();
  }`;
}

/** Threads per workgroup of a column sum (columnSumMain), one per column. */
const COLUMN_WG = 64;

interface ColumnSum {
  /** WGSL f32 expression of the term of row `r`, column `c`. */
  readonly term: string;
  /** WGSL expressions of the row and column counts (uniforms). */
  readonly rows: string;
  readonly columns: string;
  /** The output binding, one value per column. */
  readonly out: string;
  /** Add into out instead of overwriting it. */
  readonly accumulate: boolean;
}

/**
 * The main function of a gradient summed over rows (a bias's, a norm weight's): out[c] (+)= sum_r term,
 * one thread per column walking every row, neighbouring threads on neighbouring columns (coalesced).
 * Grid: columnSumGrid.
 */
export function columnSumMain(s: ColumnSum): string {
  return `@compute @workgroup_size(${COLUMN_WG})
fn main(@builtin(workgroup_id) wid: vec3<u32>, @builtin(num_workgroups) nwg: vec3<u32>, @builtin(local_invocation_index) lid: u32) {
  let c = flat_group(wid, nwg) * ${COLUMN_WG}u + lid;
  if (c >= ${s.columns}) { return; }
  var sum = 0.0;
  for (var r = 0u; r < ${s.rows}; r++) { sum += ${s.term}; }
  ${s.out}[c] ${s.accumulate ? '+=' : '='} sum;
}`;
}

export function columnSumGrid(columns: number): Grid {
  return grid2d(ceilDiv(columns, COLUMN_WG));
}

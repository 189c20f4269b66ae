/**
 * The next token of each row of logits drawn on the GPU, so that a decode step reads back a token
 * id and its logprob per row instead of the row's logits. A port of runtime/sampling.ts's
 * createSampler (float64 on the CPU, the reference its tests check this against) for the cases
 * GRPO's rollouts use: greedy (argmax among the allowed ids, lowest id on ties), and sampling at a
 * temperature from the whole vocabulary or from the ids an `allowed` bitmask lets through (bit
 * id & 31 of word id >> 5; the workflow constraint's mask), walking the ids in order with one
 * uniform draw u per row, as the CPU does. The logprob is the unmasked log softmax(z / temperature)
 * of the token (temperature 1 for greedy). Top-k and top-p stay on the CPU.
 * One workgroup of 256 threads per row: a strided pass for the max (and greedy's best allowed id),
 * one for the sum of exponentials, then each thread sums the allowed mass of its own contiguous
 * block of ids, a scan over the 256 block sums finds the block where u * total falls, and that
 * block's thread walks it. f32 where the CPU has f64, so a draw within rounding of a boundary
 * between two tokens may pick the other one.
 * out[2 r] is the token id (0xffffffff when the mask allows nothing), out[2 r + 1] its logprob's f32
 * bits (u32 throughout: small ids as f32 bits are denormals, which a GPU may flush to zero).
 * Row r reads logits row r * rowStride (0: every row samples the same logits, a group's first token).
 * Grid: R workgroups folded into 2-D.
 */
import type { KernelSpec } from '../device/index.ts';
import { grid2d, header, treeReduce } from './wgsl.ts';

const WG = 256;

export interface SampleTokensOptions {
  /** Argmax instead of a draw (temperature 0; invTemperature must then be 1). */
  readonly greedy: boolean;
  /** Read the `mask` bitsets; without, every id is allowed and `mask` is bound but unread. */
  readonly masked: boolean;
}

/** The token id the kernel writes when the mask allows no id. */
export const NO_TOKEN = 0xffffffff;

export const sampleTokens: KernelSpec<SampleTokensOptions, 'logits' | 'draws' | 'mask' | 'out', 'R' | 'V' | 'rowStride' | 'invTemperature'> = {
  name: 'sampleTokens',
  bindings: [
    { name: 'logits', access: 'read' }, // (rows, V)
    { name: 'draws', access: 'read' }, // (R) uniform draws in [0, 1)
    { name: 'mask', access: 'read' }, // (R, ceil(V / 32)) u32 bitsets
    { name: 'out', access: 'read_write' }, // (R, 2) u32: token id, logprob's f32 bits
  ],
  uniforms: [
    { name: 'R', type: 'u32' },
    { name: 'V', type: 'u32' },
    { name: 'rowStride', type: 'u32' },
    { name: 'invTemperature', type: 'f32' },
  ],
  wgsl: (o) => `${header(sampleTokens, { logits: 'f32', draws: 'f32', mask: 'u32', out: 'u32' })}
const NONE = ${NO_TOKEN}u;
var<workgroup> maxes: array<f32, ${WG}>;
var<workgroup> sums: array<f32, ${WG}>;
var<workgroup> ids: array<u32, ${WG}>;
var<workgroup> starts: array<f32, ${WG}>;
var<workgroup> chosen: atomic<u32>;
fn allowed(r: u32, i: u32) -> bool {
  ${o.masked ? 'let words = (p.V + 31u) / 32u; return ((mask[r * words + i / 32u] >> (i % 32u)) & 1u) == 1u;' : 'return true;'}
}
@compute @workgroup_size(${WG})
fn main(@builtin(workgroup_id) wid: vec3<u32>, @builtin(num_workgroups) nwg: vec3<u32>, @builtin(local_invocation_index) lid: u32) {
  let r = flat_group(wid, nwg);
  if (r >= p.R) { return; }
  let base = r * p.rowStride;
  // The max of z = logits * invTemperature, and the best allowed id (greedy) or the last allowed id
  // (a draw's fallback past the end through rounding, as the CPU's).
  var m = -3.4e38;
  var best = NONE;
  for (var i = lid; i < p.V; i += ${WG}u) {
    let z = logits[base + i] * p.invTemperature;
    m = max(m, z);
    if (allowed(r, i)) {
      ${o.greedy ? 'if (best == NONE || z > logits[base + best] * p.invTemperature) { best = i; }' : 'best = i;'}
    }
  }
  maxes[lid] = m;
  ids[lid] = best;
  ${treeReduce('maxes', WG, (a, b) => `max(${a}, ${b})`)}
  let top = maxes[0];
  // Lowest id among equal best values (greedy), highest allowed id (fallback).
  for (var w = ${WG / 2}u; w > 0u; w >>= 1u) {
    if (lid < w) {
      let a = ids[lid];
      let b = ids[lid + w];
      ${
        o.greedy
          ? `if (a == NONE || (b != NONE && (logits[base + b] > logits[base + a] || (logits[base + b] == logits[base + a] && b < a)))) { ids[lid] = b; }`
          : 'if (a == NONE || (b != NONE && b > a)) { ids[lid] = b; }'
      }
    }
    workgroupBarrier();
  }
  let fallback = ids[0];
  var s = 0.0;
  for (var i = lid; i < p.V; i += ${WG}u) { s += exp(logits[base + i] * p.invTemperature - top); }
  sums[lid] = s;
  ${treeReduce('sums', WG, (a, b) => `${a} + ${b}`)}
  let lse = top + log(sums[0]);
  workgroupBarrier();
  ${
    o.greedy
      ? ''
      : `// Each thread's contiguous block: its allowed mass, then where u * total falls among the blocks.
  let block = (p.V + ${WG - 1}u) / ${WG}u;
  let lo = min(p.V, lid * block);
  let hi = min(p.V, lo + block);
  var mass = 0.0;
  for (var i = lo; i < hi; i++) { if (allowed(r, i)) { mass += exp(logits[base + i] * p.invTemperature - top); } }
  sums[lid] = mass;
  if (lid == 0u) { atomicStore(&chosen, fallback); }
  workgroupBarrier();
  if (lid == 0u) {
    var at = 0.0;
    for (var t = 0u; t < ${WG}u; t++) { starts[t] = at; at += sums[t]; }
    starts[0] = at; // the total, read below before anything else; block 0 starts at 0
  }
  workgroupBarrier();
  let total = starts[0];
  let goal = draws[r] * total;
  let start = select(starts[lid], 0.0, lid == 0u);
  if (fallback != NONE && goal >= start && goal < start + mass) {
    var left = goal - start;
    var last = NONE;
    for (var i = lo; i < hi; i++) {
      if (allowed(r, i)) {
        last = i;
        left -= exp(logits[base + i] * p.invTemperature - top);
        if (left < 0.0) { break; }
      }
    }
    atomicStore(&chosen, last);
  }
  workgroupBarrier();`
  }
  if (lid == 0u) {
    let token = ${o.greedy ? 'fallback' : 'atomicLoad(&chosen)'};
    out[2u * r] = token;
    out[2u * r + 1u] = bitcast<u32>(select(logits[base + min(token, p.V - 1u)] * p.invTemperature - lse, 0.0, token == NONE));
  }
}`,
  grid: (u) => grid2d(u.R),
};

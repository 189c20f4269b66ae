/**
 * The next token of each row of logits drawn on the GPU, so that a decode step reads back a token
 * id and its logprob per row instead of the row's logits. A port of runtime/sampling.ts's
 * createSampler (float64 on the CPU, the reference its tests check this against): greedy (argmax
 * among the allowed ids, lowest id on ties), or a draw at a temperature from the ids an `allowed`
 * bitmask lets through (bit id & 31 of word id >> 5; the workflow constraint's mask; without it, all)
 * whose logit is at or above a floor set by top-k and top-p, walking the kept ids in id order with
 * one uniform draw u per row, as the CPU does. The logprob is the unmasked, untruncated
 * log softmax(z / temperature) of the token (temperature 1 for greedy).
 * One workgroup of 256 threads per row: a strided pass for the max (and greedy's best allowed id),
 * one for the sum of exponentials. The floor is found without sorting by an MSB-first radix select
 * over order-preserving u32 keys of the logits, 8 bits a pass, a 256-bin histogram in workgroup
 * memory per pass: counts of the allowed ids for top-k (the k-th largest), then masses of the ids
 * top-k kept for top-p (the largest key whose ids at or above hold p of their mass), summed as 64-bit
 * fixed point so that the sums do not depend on the order the threads add in. Then each thread sums
 * the kept mass of its own contiguous block of ids, a scan over the 256 block sums finds the block
 * where u * total falls, and that block's thread walks it. f32 where the CPU has f64, so a draw or a
 * top-p mass within rounding of a boundary may fall the other way.
 * out[2 r] is the token id (0xffffffff when the mask allows nothing), out[2 r + 1] its logprob's f32
 * bits (u32 throughout: small ids as f32 bits are denormals, which a GPU may flush to zero).
 * Row r reads logits row r * rowStride (0: every row samples the same logits, a group's first token).
 * Grid: R workgroups folded into 2-D.
 */
import type { KernelSpec } from '../device/index.ts';
import { grid2d, header, treeReduce } from './wgsl.ts';

const WG = 256;

interface SampleTokensOptions {
  /** Argmax instead of a draw (temperature 0; invTemperature must then be 1; no top-k or top-p). */
  readonly greedy: boolean;
  /** Read the `mask` bitsets; without, every id is allowed and `mask` is bound but unread. */
  readonly masked: boolean;
  /** Keep the allowed ids at or above the topK-th largest allowed logit. */
  readonly topK: boolean;
  /** Keep the smallest likelihood prefix of those holding topP of their mass. */
  readonly topP: boolean;
}

/** The token id the kernel writes when the mask allows no id. */
export const NO_TOKEN = 0xffffffff;

/**
 * WGSL of one radix select over the keys of the kept ids (kept(): allowed, at or above floorKey),
 * into floorKey: four passes, each a histogram of the next 8 bits of the keys that match the bits
 * chosen so far (`clear` empties it, `count` adds the term of id i, `logit`, into `bin`), then thread 0 walks the
 * bins from the top, each bin's `binValue` v (at b), until `reaches` holds, applying `minus` to its
 * remainder for each bin passed over; `init` sets that remainder up from the first pass's bins.
 */
function radixSelect(o: { count: string; clear: string; binValue: string; init: string; reaches: string; minus: string }): string {
  return `for (var round = 0u; round < 4u; round++) {
    let shift = 24u - 8u * round;
    let decided = ~(0xffffffffu >> (8u * round));
    ${o.clear}
    workgroupBarrier();
    let prefix = selected;
    for (var i = lid; i < p.V; i += ${WG}u) {
      let logit = logits[base + i];
      let key = keyOf(logit);
      if ((key & decided) == prefix && kept(r, i, key)) {
        let bin = (key >> shift) & 255u;
        ${o.count}
      }
    }
    workgroupBarrier();
    if (lid == 0u) {
      if (round == 0u) { ${o.init} }
      var b = 255u;
      loop {
        let v = ${o.binValue};
        if (b == 0u || ${o.reaches}) { break; }
        ${o.minus}
        b--;
      }
      selected = prefix | (b << shift);
      if (round == 3u) { floorKey = selected; selected = 0u; }
    }
    workgroupBarrier();
  }`;
}

/** Top-k: counts from k down. A k past the allowed count passes every bin down to key 0: all kept. */
const TOP_K = radixSelect({
  clear: 'atomicStore(&bins[lid], 0u);',
  count: 'atomicAdd(&bins[bin], 1u);',
  binValue: 'atomicLoad(&bins[b])',
  init: 'need = p.topK;',
  reaches: 'v >= need',
  minus: 'need -= v;',
});

/**
 * Top-p: masses exp(z - top allowed z) in [0, 1] as 64-bit fixed point (low word, carries into the
 * high word), relative to the largest allowed logit so that a mask far below the row's max keeps its
 * precision; `above` is the mass of the bins passed over, compared with p times the first pass's total.
 */
const TOP_P = radixSelect({
  clear: 'atomicStore(&bins[lid], 0u); atomicStore(&binsHigh[lid], 0u);',
  count: `let m = u32(min(exp(logit * p.invTemperature - topAllowed), 1.0) * 4294967040.0);
        if (atomicAdd(&bins[bin], m) > 0xffffffffu - m) { atomicAdd(&binsHigh[bin], 1u); }`,
  binValue: 'add64(above, vec2<u32>(atomicLoad(&bins[b]), atomicLoad(&binsHigh[b])))',
  init: `var total = vec2<u32>(0u, 0u);
        for (var c = 0u; c < ${WG}u; c++) { total = add64(total, vec2<u32>(atomicLoad(&bins[c]), atomicLoad(&binsHigh[c]))); }
        goalMass = p.topP * f32of64(total);`,
  reaches: 'f32of64(v) >= goalMass',
  minus: 'above = v;',
});

export const sampleTokens: KernelSpec<SampleTokensOptions, 'logits' | 'draws' | 'mask' | 'out', 'R' | 'V' | 'rowStride' | 'invTemperature' | 'topK' | 'topP'> =
  {
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
      { name: 'topK', type: 'u32' },
      { name: 'topP', type: 'f32' },
    ],
    wgsl: (o) => `${header(sampleTokens, { logits: 'f32', draws: 'f32', mask: 'u32', out: 'u32' })}
const NONE = ${NO_TOKEN}u;
var<workgroup> maxes: array<vec2<f32>, ${WG}>; // (max z, max allowed z)
var<workgroup> sums: array<f32, ${WG}>;
var<workgroup> ids: array<u32, ${WG}>;
var<workgroup> starts: array<f32, ${WG}>;
var<workgroup> chosen: atomic<u32>;
var<workgroup> lastKept: atomic<u32>; // 1 + the highest kept id, 0 for none
var<workgroup> floorKey: u32; // ids with keys below are not kept
var<workgroup> selected: u32; // a radix select's key bits chosen so far
var<workgroup> bins: array<atomic<u32>, ${WG}>;
var<workgroup> binsHigh: array<atomic<u32>, ${WG}>;
fn allowed(r: u32, i: u32) -> bool {
  ${o.masked ? 'let words = (p.V + 31u) / 32u; return ((mask[r * words + i / 32u] >> (i % 32u)) & 1u) == 1u;' : 'return true;'}
}
fn kept(r: u32, i: u32, key: u32) -> bool { return key >= floorKey && allowed(r, i); }
/** Keys in the order of the floats: sign bit flipped for positives, all bits for negatives; -0 as +0. */
fn keyOf(x: f32) -> u32 {
  var bits = bitcast<u32>(x);
  if ((bits & 0x7fffffffu) == 0u) { bits = 0u; }
  return select(bits | 0x80000000u, ~bits, (bits >> 31u) == 1u);
}
fn add64(a: vec2<u32>, b: vec2<u32>) -> vec2<u32> {
  let lo = a.x + b.x;
  return vec2<u32>(lo, a.y + b.y + select(0u, 1u, lo < a.x));
}
fn f32of64(a: vec2<u32>) -> f32 { return f32(a.y) * 4294967296.0 + f32(a.x); }
@compute @workgroup_size(${WG})
fn main(@builtin(workgroup_id) wid: vec3<u32>, @builtin(num_workgroups) nwg: vec3<u32>, @builtin(local_invocation_index) lid: u32) {
  let r = flat_group(wid, nwg);
  if (r >= p.R) { return; }
  let base = r * p.rowStride;
  if (lid == 0u) {
    atomicStore(&chosen, NONE);
    atomicStore(&lastKept, 0u);
    floorKey = 0u;
    selected = 0u;
  }
  // The max of z = logits * invTemperature, of the allowed z, and (greedy) the best allowed id.
  var m = vec2<f32>(-3.4e38, -3.4e38);
  var best = NONE;
  for (var i = lid; i < p.V; i += ${WG}u) {
    let z = logits[base + i] * p.invTemperature;
    m.x = max(m.x, z);
    if (allowed(r, i)) {
      m.y = max(m.y, z);
      ${o.greedy ? 'if (best == NONE || z > logits[base + best] * p.invTemperature) { best = i; }' : ''}
    }
  }
  maxes[lid] = m;
  ${o.greedy ? 'ids[lid] = best;' : ''}
  ${treeReduce('maxes', WG, (a, b) => `max(${a}, ${b})`)}
  let top = maxes[0].x;
  let topAllowed = maxes[0].y;
  ${
    o.greedy
      ? `// Lowest id among equal best values.
  for (var w = ${WG / 2}u; w > 0u; w >>= 1u) {
    if (lid < w) {
      let a = ids[lid];
      let b = ids[lid + w];
      if (a == NONE || (b != NONE && (logits[base + b] > logits[base + a] || (logits[base + b] == logits[base + a] && b < a)))) { ids[lid] = b; }
    }
    workgroupBarrier();
  }`
      : ''
  }
  var s = 0.0;
  for (var i = lid; i < p.V; i += ${WG}u) { s += exp(logits[base + i] * p.invTemperature - top); }
  sums[lid] = s;
  ${treeReduce('sums', WG, (a, b) => `${a} + ${b}`)}
  let lse = top + log(sums[0]);
  workgroupBarrier();
  ${
    o.greedy
      ? 'let token = ids[0];'
      : `var need = 0u; // thread 0's radix select state
  var above = vec2<u32>(0u, 0u);
  var goalMass = 0.0;
  ${o.topK ? TOP_K : ''}
  ${o.topP ? TOP_P : ''}
  // Each thread's contiguous block: its kept mass, then where u * total falls among the blocks.
  let block = (p.V + ${WG - 1}u) / ${WG}u;
  let lo = min(p.V, lid * block);
  let hi = min(p.V, lo + block);
  var mass = 0.0;
  var last = NONE;
  for (var i = lo; i < hi; i++) {
    let logit = logits[base + i];
    if (kept(r, i, keyOf(logit))) {
      mass += exp(logit * p.invTemperature - topAllowed);
      last = i;
    }
  }
  sums[lid] = mass;
  if (last != NONE) { atomicMax(&lastKept, last + 1u); }
  workgroupBarrier();
  if (lid == 0u) {
    var at = 0.0;
    for (var t = 0u; t < ${WG}u; t++) { starts[t] = at; at += sums[t]; }
    starts[0] = at; // the total, read below before anything else; block 0 starts at 0
  }
  workgroupBarrier();
  let goal = draws[r] * starts[0];
  let start = select(starts[lid], 0.0, lid == 0u);
  if (goal >= start && goal < start + mass) {
    var left = goal - start;
    for (var i = lo; i < hi; i++) {
      let logit = logits[base + i];
      if (kept(r, i, keyOf(logit))) {
        last = i;
        left -= exp(logit * p.invTemperature - topAllowed);
        if (left < 0.0) { break; }
      }
    }
    atomicStore(&chosen, last);
  }
  workgroupBarrier();
  // Past the end through rounding: the last kept id, as on the CPU.
  let fallback = atomicLoad(&lastKept);
  let token = select(atomicLoad(&chosen), select(fallback - 1u, NONE, fallback == 0u), atomicLoad(&chosen) == NONE);`
  }
  if (lid == 0u) {
    out[2u * r] = token;
    out[2u * r + 1u] = bitcast<u32>(select(logits[base + min(token, p.V - 1u)] * p.invTemperature - lse, 0.0, token == NONE));
  }
}`,
    grid: (u) => grid2d(u.R),
  };

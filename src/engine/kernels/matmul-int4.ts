/**
 * Linear-layer matmul over int4 weights, a port of matmulInt4Ref in quant/matmul-int4.ref.ts: matmulRef applied to the
 * weights int4RoundTripRef (quant/int4.ref.ts) reads back, without ever storing them dequantised:
 *   out[m, col0 + n] (+)= alpha * sum_k x[m, k] * (level[n, k] * scale[n, k / G]) + b[col0 + n]
 * w (N, K / 8) u32 packed as in quant/int4.ts, scales (N, K / G) and b in the float dtype.
 *
 * Same threads and reduction as matmul.ts (matmulMain). Lanes step over units of 32 weights, four
 * packed words read as one vec4<u32> (16 bytes per thread per load); each word is unpacked once
 * into two vec4s of dequantised weights and used for every row of the block. K % 32 == 0 always
 * holds (K is a multiple of the group size, itself 32 or 64). Decode reads 4 bits per weight plus
 * one scale per group.
 * Its input gradient, matmulInt4BackwardInput, is below (int4 weights are frozen: no weight gradient).
 */
import type { BindingSpec, KernelSpec } from '../device/index.ts';
import { backwardInputLoop, MATMUL_BACKWARD_UNIFORMS, type MatmulBackwardOptions, type MatmulBackwardUniform } from './matmul-backward.ts';
import { MATMUL_UNIFORMS, matmulGrid, matmulMain, plainX, type LoopNames, type MatmulLayout, type MatmulUniform } from './matmul.ts';
import { header, type Dtype } from './wgsl.ts';

interface MatmulInt4Options extends MatmulLayout {
  /** dtype of the scales and the bias. */
  readonly dtype: Dtype;
  /** Weights per scale: 32 or 64. K must be a multiple of it. */
  readonly groupSize: number;
  readonly bias: boolean;
  readonly accumulate: boolean;
}

type Binding = 'x' | 'w' | 'scales' | 'b' | 'out';

const BINDINGS: readonly BindingSpec<Binding>[] = [
  { name: 'x', access: 'read' }, // (M, K) f32
  { name: 'w', access: 'read' }, // (N, K / 8) u32
  { name: 'scales', access: 'read' }, // (N, K / G)
  { name: 'b', access: 'read' }, // (col0 + N); bound but unread without the bias option
  { name: 'out', access: 'read_write' }, // (M, ldo) f32
];

/** Shifts of the eight levels in a packed word, four at a time. */
export const INT4_SHIFTS = `const SHIFT_LO = vec4<u32>(0u, 4u, 8u, 12u);
const SHIFT_HI = vec4<u32>(16u, 20u, 24u, 28u);`;

/** The int4 loop of matmulBody over `w` (vec4<u32>) and `scales`, x read as vec4<f32>. */
export function int4MatmulLoop(groupSize: number, names: LoopNames): string {
  const { n, acc, x } = names;
  return `{
  let units = p.K / 32u;
  let groups = p.K / ${groupSize}u;
  let K4 = p.K / 4u;
  for (var u = lane; u < units; u += LANES) {
    let s = f32(scales[(${n}) * groups + u * 32u / ${groupSize}u]);
    let words = w[(${n}) * units + u];
    for (var j = 0u; j < 4u; j++) {
      let packed = vec4<u32>(words[j]);
      let lo = (vec4<f32>((packed >> SHIFT_LO) & vec4<u32>(15u)) - 8.0) * s;
      let hi = (vec4<f32>((packed >> SHIFT_HI) & vec4<u32>(15u)) - 8.0) * s;
      for (var r = 0u; r < ROWS; r++) {
        if (r < rows) {
          let xc = 8u * u + 2u * j;
          ${acc}[r] += ${x('m0 + r', 'xc', 'K4')} * lo + ${x('m0 + r', 'xc + 1u', 'K4')} * hi;
        }
      }
    }
  }
  }`;
}

export const matmulInt4Forward: KernelSpec<MatmulInt4Options, Binding, MatmulUniform> = {
  name: 'matmulInt4Forward',
  bindings: BINDINGS,
  uniforms: MATMUL_UNIFORMS,
  wgsl: (o) => `${header(matmulInt4Forward, { x: 'vec4<f32>', w: 'vec4<u32>', scales: o.dtype, b: o.dtype, out: 'f32' }, o.dtype)}
${INT4_SHIFTS}
${matmulMain({ o, acc: 'vec4<f32>', loop: int4MatmulLoop(o.groupSize, { n: 'n', acc: 'acc', x: plainX }) })}`,
  grid: matmulGrid,
};

interface MatmulInt4BackwardInputOptions extends MatmulBackwardOptions {
  /** dtype of the scales. */
  readonly dtype: Dtype;
  readonly groupSize: number;
}

/**
 * Backward to the input through frozen int4 weights, a port of matmulInt4BackwardInputRef in
 * quant/matmul-int4.ref.ts: matmulBackwardInput (matmul-backward.ts, same letters: dx (M, N) = dy (M, K) W
 * (K, N), N = in features) with w[k, n] unpacked and scaled in registers from the packed word, never
 * stored dequantised. Neighbouring threads share a word (eight columns) and a scale.
 */
export const matmulInt4BackwardInput: KernelSpec<MatmulInt4BackwardInputOptions, 'dy' | 'w' | 'scales' | 'dx', MatmulBackwardUniform> = {
  name: 'matmulInt4BackwardInput',
  bindings: [
    { name: 'dy', access: 'read' }, // (M, ldy) f32
    { name: 'w', access: 'read' }, // (K, N / 8) u32
    { name: 'scales', access: 'read' }, // (K, N / G)
    { name: 'dx', access: 'read_write' }, // (M, ldo) f32
  ],
  uniforms: MATMUL_BACKWARD_UNIFORMS,
  wgsl: (o) => {
    const weight = `(f32((w[k * (p.N / 8u) + n / 8u] >> (4u * (n % 8u))) & 15u) - 8.0) * f32(scales[k * (p.N / ${o.groupSize}u) + n / ${o.groupSize}u])`;
    return `${header(matmulInt4BackwardInput, { dy: 'f32', w: 'u32', scales: o.dtype, dx: 'f32' }, o.dtype)}
${matmulMain({ o: { ...o, bias: false }, acc: 'f32', loop: backwardInputLoop(weight), output: 'dx' })}`;
  },
  grid: matmulGrid,
};

/**
 * A linear layer on the GPU: out (M, N) (+)= x (M, K) W^T + b, W (N, K) in the float dtype or int4,
 * possibly in row chunks, and the LoRA delta scale * (x A^T) B^T added beside it when the layer is
 * adapted (two thin matmuls through an (M, r) scratch; W itself is never changed, QLoRA-style).
 */
import type { Capabilities, CommandBatch } from '../device/index.ts';
import { MAX_ROWS_PER_THREAD, matmulForward, matmulInt4Forward, matmulNormedCpu, matmulNormedRows, type MatmulNormedOptions } from '../kernels/index.ts';
import { wholeBuffer, type GpuTensor } from './gpu-tensor.ts';
import type { GpuLoraModule } from './lora-weights.ts';
import type { Scratch } from './scratch.ts';

export interface LinearArgs {
  x: GPUBuffer; // (M, K)
  M: number;
  weight: GpuTensor; // (N, K)
  out: GPUBuffer; // (M, N)
  bias?: GpuTensor; // (N)
  /** Add into out instead of overwriting it (residual connections). */
  accumulate?: boolean;
  /** Threads per output column (see kernels/matmul.ts): matmulLanes(device.caps) unless measuring. */
  lanes: number;
  lora?: { module: GpuLoraModule; scale: number; scratch: Scratch };
}

/**
 * Threads per output column that suit this adapter: 32 on a GPU (coalesced weight loads), 1 on a
 * CPU implementation such as SwiftShader, where barriers cost more than uncoalesced reads.
 */
export function matmulLanes(caps: Capabilities): number {
  return caps.software ? 1 : 32;
}

function product(
  batch: CommandBatch,
  lanes: number,
  x: GPUBuffer,
  M: number,
  w: GpuTensor,
  out: GPUBuffer,
  accumulate: boolean,
  alpha: number,
  bias?: GpuTensor,
): void {
  const common = { dtype: w.dtype, bias: bias !== undefined, accumulate, rowsPerThread: Math.min(M, MAX_ROWS_PER_THREAD), lanes };
  for (const chunk of w.chunks) {
    const b = bias ? wholeBuffer(bias) : chunk.buffer;
    const shape = { M, N: chunk.rows, K: w.cols, ldo: w.rows, col0: chunk.rowStart, alpha };
    if (w.int4) {
      batch.run(matmulInt4Forward, { ...common, groupSize: w.int4.groupSize }, { x, w: chunk.buffer, scales: chunk.scales!, b, out }, shape);
    } else {
      batch.run(matmulForward, { ...common, vec4: w.cols % 4 === 0 }, { x, w: chunk.buffer, b, out }, shape);
    }
  }
}

export function linearForward(batch: CommandBatch, a: LinearArgs): void {
  product(batch, a.lanes, a.x, a.M, a.weight, a.out, a.accumulate ?? false, 1, a.bias);
  if (!a.lora) return;
  const { A, B } = a.lora.module;
  const xa = a.lora.scratch.floats(a.M * A.rows, 'lora xA'); // (M, r)
  product(batch, a.lanes, a.x, a.M, A, xa, false, 1);
  addLoraUp(batch, a.lanes, xa, a.M, B, a.out, a.lora.scale);
}

/** out (M, N) += scale * xa B^T: the second half of a LoRA delta, xa = x A^T (M, r). */
export function addLoraUp(batch: CommandBatch, lanes: number, xa: GPUBuffer, M: number, B: GpuTensor, out: GPUBuffer, scale: number): void {
  product(batch, lanes, xa, M, B, out, true, scale);
}

/** Options of a matmulNormed kernel (kernels/matmul-normed.ts) over weight `w` and norm weight `norm`. */
export function normedOptions(w: GpuTensor, norm: GpuTensor, M: number, lanes: number, bias: boolean): MatmulNormedOptions {
  return {
    dtype: w.dtype,
    normDtype: norm.dtype,
    groupSize: w.int4?.groupSize ?? 0,
    vec4: w.cols % 4 === 0,
    bias,
    rowsPerThread: Math.min(M, MAX_ROWS_PER_THREAD),
    lanes,
  };
}

interface NormedLinearArgs {
  x: GPUBuffer; // (M, K), before the norm
  M: number;
  norm: GpuTensor; // (K)
  eps: number;
  weight: GpuTensor; // (N, K), possibly in row chunks
  out: GPUBuffer; // (M, N)
  lanes: number;
}

/**
 * out = rmsnorm(x; norm) W^T in one dispatch per row chunk of W (the LM head after the final norm, a LoRA A).
 * One lane per column means a CPU adapter (matmulLanes): there matmulNormedCpu's layout, several columns a thread.
 */
export function normedLinearForward(batch: CommandBatch, a: NormedLinearArgs): void {
  const w = a.weight;
  const options = normedOptions(w, a.norm, a.M, a.lanes, false);
  const cpu = a.lanes === 1 && (options.vec4 || options.groupSize > 0);
  for (const chunk of w.chunks) {
    if (cpu) {
      const { dtype, normDtype, groupSize, rowsPerThread } = options;
      batch.run(
        matmulNormedCpu,
        { dtype, normDtype, groupSize, rowsPerThread },
        { x: a.x, g: wholeBuffer(a.norm), w: chunk.buffer, scales: chunk.scales ?? chunk.buffer, out: a.out },
        { M: a.M, N: chunk.rows, K: w.cols, ldo: w.rows, col0: chunk.rowStart, eps: a.eps },
      );
      continue;
    }
    batch.run(
      matmulNormedRows,
      options,
      { x: a.x, g: wholeBuffer(a.norm), w: chunk.buffer, scales: chunk.scales ?? chunk.buffer, b: chunk.buffer, out: a.out },
      { M: a.M, N: chunk.rows, K: w.cols, ldo: w.rows, col0: chunk.rowStart, N1: 0, N2: 0, eps: a.eps },
    );
  }
}

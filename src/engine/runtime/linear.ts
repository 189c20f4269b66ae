/**
 * A linear layer on the GPU: out (M, N) (+)= x (M, K) W^T + b, W (N, K) in the float dtype or int4,
 * possibly in row chunks, and the LoRA delta scale * (x A^T) B^T added beside it when the layer is
 * adapted (two thin matmuls through an (M, r) scratch; W itself is never changed, QLoRA-style).
 */
import type { Capabilities, CommandBatch } from '../device/index.ts';
import { MAX_ROWS_PER_THREAD, matmulForward, matmulInt4Forward } from '../kernels/index.ts';
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

function product(batch: CommandBatch, lanes: number, x: GPUBuffer, M: number, w: GpuTensor, out: GPUBuffer, accumulate: boolean, alpha: number, bias?: GpuTensor): void {
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
  product(batch, a.lanes, xa, a.M, B, a.out, true, a.lora.scale);
}
